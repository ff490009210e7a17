package io.nearline.localcluster.deploy;

import io.nearline.bootstrap.DatabaseSnapshot;
import io.nearline.common.events.DebeziumVersion;
import io.nearline.localcluster.kit.KafkaClient;
import io.nearline.localcluster.kit.KafkaTopics;
import java.time.Duration;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The PostgreSQL bootstrap's watermark as Debezium's connector streamed it: its logical-decoding
 * message events go to {@code <topic.prefix>.message}, each with the position the connector gave it.
 */
record DebeziumWatermarks(KafkaClient brokers, String topic) implements DatabaseSnapshot.Watermarks {

    @Override
    public DebeziumVersion.Position await(String snapshotId, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            for (ConsumerRecord<byte[], byte[]> r : KafkaTopics.readAll(brokers, topic)) {
                DebeziumVersion.Position at = DatabaseSnapshot.watermark(r.value(), snapshotId);
                if (at != null) {
                    return at;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the connector did not stream the bootstrap's watermark to " + topic
                        + " within " + limit.toSeconds() + " s: is Debezium's PostgreSQL connector running "
                        + "(bin/nearline deploy jobs/deploy/debezium-postgres.yaml), and does --watermark-topic "
                        + "name its <topic.prefix>.message topic?");
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the watermark", e);
            }
        }
    }
}
