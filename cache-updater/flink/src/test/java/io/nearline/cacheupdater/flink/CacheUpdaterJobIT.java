/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.nearline.cacheupdater.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nearline.common.avro.DeadLetter;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.config.Config;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.events.ChangeEventCodec;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import io.nearline.common.testkit.ChangeEventGenerator;
import io.nearline.common.testkit.Seeds;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job as {@link CacheUpdaterJob#define} wires it, run on a Flink MiniCluster in this module: a
 * scrambled, repeated change stream ends at every key's newest version in the embedded store, and
 * the records it cannot take end as dead letters with their reason and source. (The conformance
 * suites in local-cluster hold it to the reference run with a real broker; this holds the wiring.)
 */
class CacheUpdaterJobIT {

    private static final ConcurrentLinkedQueue<byte[]> DEAD_LETTERS = new ConcurrentLinkedQueue<>();

    /** The dead-letter sink: what the job sends, kept in this JVM. */
    static final class Collected implements Sink<byte[]> {
        @Override
        public SinkWriter<byte[]> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(byte[] letter, Context c) {
                    DEAD_LETTERS.add(letter);
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }

    private static byte[] change(int key, long scn, boolean delete) {
        return ChangeEventCodec.encode(ChangeEventGenerator.event("member:" + key, key % 4, scn, delete));
    }

    @Timeout(120)
    @Test
    void aScrambledStreamEndsAtEveryKeysNewestVersionAndBadRecordsAreDeadLettered(@TempDir Path dir) throws Exception {
        long seed = Seeds.seed();
        Random random = new Random(seed);
        int keys = 50;
        long[] newest = new long[keys];
        boolean[] deleted = new boolean[keys];
        ArrayList<byte[]> input = new ArrayList<>();
        for (long scn = 1; scn <= 2_000; scn++) {
            int key = random.nextInt(keys);
            boolean delete = random.nextInt(10) == 0;
            newest[key] = scn;
            deleted[key] = delete;
            input.add(change(key, scn, delete));
        }
        List<byte[]> repeats = new ArrayList<>(input.subList(0, 500)); // delivered again, as after a restart
        Collections.shuffle(input, random);
        input.addAll(repeats);
        int bad = 3;
        for (int i = 0; i < bad; i++) {
            input.add(random.nextInt(input.size()), ("not a change " + i).getBytes(StandardCharsets.UTF_8));
        }
        Config config = Config.of(Map.of(
                "kafka.bootstrap-servers", "127.0.0.1:9", // the test's I/O is given: no broker is reached
                "cache.store", "rocksdb",
                "rocksdb.path", dir.resolve("cache").toString(),
                "write.batch.max-keys", "16"));

        DEAD_LETTERS.clear();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        CacheUpdaterJob.define(env, new CacheUpdaterIo(records(input), null, new Collected()), config);
        env.execute("cache-updater-job-test");

        try (CacheStore store = CacheStores.open(config)) {
            for (int key = 0; key < keys; key++) {
                if (newest[key] == 0) {
                    continue;
                }
                var stored = CacheRecordCodec.decode(
                        store.get(CacheKey.of("member:" + key)).orElseThrow().value());
                assertEquals(newest[key], stored.version().scn().value(), "member:" + key + " " + Seeds.replay(seed));
                assertEquals(deleted[key], stored.tombstone(), "member:" + key + " " + Seeds.replay(seed));
            }
        }
        assertEquals(bad, DEAD_LETTERS.size(), Seeds.replay(seed));
        for (byte[] letter : DEAD_LETTERS) {
            DeadLetter d = DeadLetters.decode(letter);
            assertEquals("UNDECODABLE", d.getReason().toString(), Seeds.replay(seed));
            assertEquals("cdc", d.getSourceTopic().toString());
        }
    }

    /** The records as a bounded source, each with its position on a one-partition topic {@code cdc}. */
    private static DataGeneratorSource<KafkaInput> records(ArrayList<byte[]> values) {
        return new DataGeneratorSource<>(
                i -> new KafkaInput("cdc", 0, i, null, values.get(i.intValue())),
                values.size(),
                TypeInformation.of(KafkaInput.class));
    }
}
