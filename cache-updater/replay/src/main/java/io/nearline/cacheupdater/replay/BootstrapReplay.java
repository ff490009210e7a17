package io.nearline.cacheupdater.replay;

import io.nearline.bootstrap.BootstrapSettings;
import io.nearline.bootstrap.SnapshotProducer;
import io.nearline.bootstrap.SnapshotRows;
import io.nearline.common.console.Progress;
import io.nearline.localcluster.replay.KafkaTopics;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;

/** The bootstrap side of a replay: the bootstrap topic and the snapshot published to it. */
final class BootstrapReplay {

    private BootstrapReplay() {}

    /**
     * Publishes the snapshot (the change stream's current end offsets go into the BEGIN markers). With
     * {@code crashAfterRows} >= 0 the first producer dies after that many rows and a second one resumes
     * from the saved progress. Returns the records on the bootstrap topic.
     */
    static long publish(
            String bootstrapServers,
            BootstrapSettings settings,
            int partitions,
            String cdcTopic,
            SnapshotRows snapshot,
            Path progressFile,
            long crashAfterRows) {
        KafkaTopics.createTopics(bootstrapServers, Map.of(settings.topic(), partitions));
        Map<Integer, Long> liveOffsets = KafkaTopics.endOffsets(bootstrapServers, cdcTopic);
        long records = 0;
        try (Progress progress =
                new Progress("snapshot rows sent", snapshot.rows().size() + 2L * partitions, System.err)) {
            if (crashAfterRows >= 0) {
                try (KafkaProducer<byte[], byte[]> first = KafkaTopics.producer(bootstrapServers)) {
                    records += new SnapshotProducer(first, settings.topic(), partitions, settings.chunkRows())
                            .publish(snapshot, progressFile, liveOffsets, crashAfterRows, progress::step)
                            .recordsSentNow();
                }
                System.err.printf(
                        "%nsnapshot producer stopped after %,d rows (drill); a new one resumes%n", crashAfterRows);
            }
            try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(bootstrapServers)) {
                records += new SnapshotProducer(producer, settings.topic(), partitions, settings.chunkRows())
                        .publish(snapshot, progressFile, liveOffsets, -1, progress::step)
                        .recordsSentNow();
            }
        }
        return records;
    }
}
