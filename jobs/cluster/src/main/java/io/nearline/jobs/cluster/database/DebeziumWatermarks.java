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
package io.nearline.jobs.cluster.database;

import io.nearline.cdcbootstrap.core.DatabaseSnapshot;
import io.nearline.common.events.DebeziumVersion;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import java.time.Duration;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The PostgreSQL bootstrap's watermark as Debezium's connector streamed it: its logical-decoding
 * message events go to {@code <topic.prefix>.message}, each with the position the connector gave it.
 */
public record DebeziumWatermarks(KafkaClient brokers, String topic) implements DatabaseSnapshot.Watermarks {

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
