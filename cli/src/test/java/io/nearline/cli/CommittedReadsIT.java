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
package io.nearline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.kafka.EmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The project's readers see what a production consumer with isolation.level=read_committed sees: the
 * records of an aborted transaction (a Flink join's outputs from before a failure) never, those of a
 * committed one once. The negative control reads the same topic uncommitted and does see the aborted.
 */
class CommittedReadsIT {

    @TempDir
    Path dir;

    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    @Test
    void abortedTransactionsAreNotRead() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir)) {
            kafka.createTopics(Map.of("joined", 1));
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                    Map.of(
                            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            kafka.bootstrapServers(),
                            ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                            "committed-reads-it"),
                    new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(record("emitted before the failure"));
                producer.flush();
                producer.abortTransaction();
                producer.beginTransaction();
                producer.send(record("emitted again after the restore"));
                producer.commitTransaction();
            }
            List<String> committed = new ArrayList<>();
            KafkaTopics.readAll(kafka.bootstrapServers(), "joined")
                    .forEach(r -> committed.add(new String(r.value(), StandardCharsets.UTF_8)));
            assertEquals(List.of("emitted again after the restore"), committed);
            assertEquals(
                    List.of("emitted before the failure", "emitted again after the restore"),
                    readUncommitted(kafka.bootstrapServers()),
                    "negative control: an uncommitted reader sees the aborted record");
        }
    }

    private static ProducerRecord<byte[], byte[]> record(String value) {
        return new ProducerRecord<>("joined", value.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> readUncommitted(String bootstrap) {
        List<String> out = new ArrayList<>();
        TopicPartition p = new TopicPartition("joined", 0);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_uncommitted"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(p));
            consumer.seekToBeginning(List.of(p));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (out.size() < 2 && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200))
                        .forEach(r -> out.add(new String(r.value(), StandardCharsets.UTF_8)));
            }
        }
        return out;
    }
}
