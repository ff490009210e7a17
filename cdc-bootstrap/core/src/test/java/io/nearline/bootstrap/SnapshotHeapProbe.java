package io.nearline.bootstrap;

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
