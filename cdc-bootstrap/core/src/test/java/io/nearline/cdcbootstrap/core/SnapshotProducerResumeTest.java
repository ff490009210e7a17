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
package io.nearline.cdcbootstrap.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A producer that dies mid-snapshot (here: its progress callback throws, as the replay's crash drill
 * does) leaves the progress of its last whole chunk; a new producer resends from there and ends the
 * snapshot, so every row reaches the topic at least once.
 */
class SnapshotProducerResumeTest {

    private static final int PARTITIONS = 2;
    private static final int CHUNK_ROWS = 10;

    @TempDir
    Path dir;

    private static SnapshotRows snapshot(int rows) {
        List<ChangeEvent> list = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            list.add(ChangeEvent.newBuilder()
                    .setTable("t")
                    .setKey(String.format("k%03d", i))
                    .setPartition(0)
                    .setScn(i + 1)
                    .setOp(Op.UPSERT)
                    .setSchemaVersion(1)
                    .setPayload(ByteBuffer.wrap(("v" + i).getBytes(StandardCharsets.UTF_8)))
                    .build());
        }
        return new SnapshotRows("s1", Map.of(0, (long) rows), list);
    }

    private static MockProducer<byte[], byte[]> producer() {
        return new MockProducer<>(true, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Test
    void aProducerThatDiesMidChunkIsResumedFromItsLastWholeChunk() {
        SnapshotRows snapshot = snapshot(25);
        Path progress = dir.resolve("progress.properties");
        MockProducer<byte[], byte[]> first = producer();
        long[] handed = {0};
        long crashAt = PARTITIONS + 15; // the BEGIN markers, then 15 rows: a chunk and a half
        assertThrows(IllegalStateException.class, () -> new SnapshotProducer(
                        first, "bootstrap", PARTITIONS, CHUNK_ROWS, "dlq")
                .publish(snapshot, progress, Map.of(), () -> {
                    if (++handed[0] == crashAt) {
                        throw new IllegalStateException("crash");
                    }
                }));
        assertEquals(PARTITIONS + 15, first.history().size());

        MockProducer<byte[], byte[]> second = producer();
        SnapshotProducer.Result result = new SnapshotProducer(second, "bootstrap", PARTITIONS, CHUNK_ROWS, "dlq")
                .publish(snapshot, progress, Map.of(), () -> {});

        assertTrue(result.resumed());
        assertTrue(result.ended());
        assertEquals(15, result.rowsSentNow(), "the rows after the last saved chunk, the half chunk again");
        TreeSet<String> keys = new TreeSet<>();
        for (MockProducer<byte[], byte[]> p : List.of(first, second)) {
            for (ProducerRecord<byte[], byte[]> r : p.history()) {
                if (r.key() != null) {
                    keys.add(new String(r.key(), StandardCharsets.UTF_8));
                }
            }
        }
        assertEquals(25, keys.size(), "every row on the topic at least once");
    }
}
