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

import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Run in a JVM of its own with a small heap by {@link SnapshotMemoryTest}: publishes a snapshot file,
 * read as a stream ({@code stream}) or loaded whole ({@code load}). Kafka's own MockProducer stands in
 * for the broker, its sent records dropped as they go, so that only the snapshot's reading is
 * measured; publication to a real broker is covered by the conformance suites. Prints the rows sent.
 */
public final class SnapshotHeapProbe {

    private SnapshotHeapProbe() {}

    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        SnapshotSource snapshot = args[1].equals("stream") ? SnapshotFile.open(file) : SnapshotRows.read(file);
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(true, new ByteArraySerializer(), new ByteArraySerializer());
        long[] records = {0};
        SnapshotProducer.Result result = new SnapshotProducer(producer, "bootstrap", 4, 1000, "dlq")
                .publish(snapshot, null, Map.of(), () -> {
                    if (++records[0] % 1000 == 0) {
                        producer.clear();
                    }
                });
        System.out.println("rows sent " + result.rowsSentNow());
    }
}
