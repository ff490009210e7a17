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
package io.nearline.cacheupdater.samza;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nearline.common.avro.DeadLetter;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.samza.operators.KV;
import org.apache.samza.serializers.NoOpSerde;
import org.apache.samza.test.framework.TestRunner;
import org.apache.samza.test.framework.system.descriptors.InMemoryInputDescriptor;
import org.apache.samza.test.framework.system.descriptors.InMemoryOutputDescriptor;
import org.apache.samza.test.framework.system.descriptors.InMemorySystemDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The task as {@link CacheUpdaterApp} wires it, on Samza's in-memory TestRunner in this module: a
 * scrambled, repeated change stream over two partitions ends at every key's newest version in the
 * embedded store, and the records it cannot take end on the dead-letter stream with their reason
 * and source. (The conformance suites in local-cluster hold it to the reference run with a real
 * broker; this holds the task's wiring.)
 */
class CacheUpdaterTaskTest {

    private static byte[] change(int key, long scn, boolean delete) {
        return ChangeEventCodec.encode(ChangeEventGenerator.event("member:" + key, key % 2, scn, delete));
    }

    @Timeout(120)
    @Test
    void aScrambledStreamEndsAtEveryKeysNewestVersionAndBadRecordsAreDeadLettered(@TempDir Path dir) {
        long seed = Seeds.seed();
        Random random = new Random(seed);
        int keys = 40;
        long[] newest = new long[keys];
        boolean[] deleted = new boolean[keys];
        Map<Integer, List<KV<byte[], byte[]>>> partitions = new HashMap<>();
        for (int p = 0; p < 2; p++) {
            partitions.put(p, new ArrayList<>());
        }
        for (long scn = 1; scn <= 1_000; scn++) {
            int key = random.nextInt(keys);
            boolean delete = random.nextInt(10) == 0;
            newest[key] = scn;
            deleted[key] = delete;
            partitions
                    .get(key % 2)
                    .add(KV.of(("member:" + key).getBytes(StandardCharsets.UTF_8), change(key, scn, delete)));
        }
        for (List<KV<byte[], byte[]>> messages : partitions.values()) {
            messages.addAll(
                    new ArrayList<>(messages.subList(0, messages.size() / 4))); // sent again, as after a restart
            Collections.shuffle(messages, random);
        }
        int bad = 2;
        for (int i = 0; i < bad; i++) {
            partitions
                    .get(i % 2)
                    .add(random.nextInt(10), KV.of(null, ("not a change " + i).getBytes(StandardCharsets.UTF_8)));
        }
        Map<String, String> settings = Map.of(
                "kafka.bootstrap-servers", "127.0.0.1:9", // the in-memory system stands in for Kafka
                "cdc.topic", "cdc",
                "cdc.dead-letter-topic", "deadletters",
                "cache.store", "rocksdb",
                "rocksdb.path", dir.resolve("cache").toString(),
                "write.batch.max-keys", "8",
                "task.max.concurrency", "16");

        InMemorySystemDescriptor kafka = new InMemorySystemDescriptor(CacheUpdaterApp.SYSTEM);
        InMemoryInputDescriptor<KV<byte[], byte[]>> cdc = kafka.getInputDescriptor("cdc", new NoOpSerde<>());
        InMemoryOutputDescriptor<byte[]> deadLetters = kafka.getOutputDescriptor("deadletters", new NoOpSerde<>());
        TestRunner.of(new CacheUpdaterApp())
                .addConfig(settings)
                .addInputStream(cdc, partitions)
                .addOutputStream(deadLetters, 1)
                .run(Duration.ofSeconds(60));

        try (CacheStore store = CacheStores.open(Config.of(settings))) {
            for (int key = 0; key < keys; key++) {
                if (newest[key] == 0) {
                    continue;
                }
                CacheRecord stored = CacheRecordCodec.decode(
                        store.get(CacheKey.of("member:" + key)).orElseThrow().value());
                assertEquals(newest[key], stored.version().scn().value(), "member:" + key + " " + Seeds.replay(seed));
                assertEquals(deleted[key], stored.tombstone(), "member:" + key + " " + Seeds.replay(seed));
            }
        }
        List<byte[]> letters = new ArrayList<>();
        for (List<?> partition :
                TestRunner.consumeStream(deadLetters, Duration.ofSeconds(10)).values()) {
            partition.forEach(m -> letters.add((byte[]) m));
        }
        assertEquals(bad, letters.size(), Seeds.replay(seed));
        for (byte[] letter : letters) {
            DeadLetter d = DeadLetters.decode(letter);
            assertEquals("UNDECODABLE", d.getReason().toString(), Seeds.replay(seed));
            assertEquals("cdc", d.getSourceTopic().toString());
        }
    }
}
