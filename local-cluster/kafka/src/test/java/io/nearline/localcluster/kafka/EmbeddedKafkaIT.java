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
package io.nearline.localcluster.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaIT {

    @TempDir
    Path dir;

    @Test
    void producesAndConsumesOnLoopbackAndKeepsDataAcrossARestart() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir)) {
            assertTrue(kafka.bootstrapServers().startsWith("127.0.0.1:"), kafka.bootstrapServers());
            kafka.createTopics(Map.of("events", 3));
            kafka.createTopics(Map.of("events", 3)); // idempotent
            assertEquals(
                    3,
                    kafka.admin()
                            .describeTopics(List.of("events"))
                            .allTopicNames()
                            .get(30, TimeUnit.SECONDS)
                            .get("events")
                            .partitions()
                            .size());
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                    new StringSerializer(),
                    new StringSerializer())) {
                for (int i = 0; i < 100; i++) {
                    producer.send(new ProducerRecord<>("events", "k" + i, "v" + i));
                }
            }
            assertEquals(
                    100, consumeAll(kafka.bootstrapServers(), "events", 100).size());
        }
        try (EmbeddedKafka again = EmbeddedKafka.start(dir)) {
            assertEquals(
                    100, consumeAll(again.bootstrapServers(), "events", 100).size());
        }
    }

    static List<ConsumerRecord<String, String>> consumeAll(String bootstrap, String topic, int expected) {
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "test-" + System.nanoTime(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (out.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }
}
