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
package io.nearline.localcluster.joinreplay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.config.Config;
import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.feedtrackingjoin.core.JoinPartitions;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.feedtrackingjoin.core.TrackingCodec;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.jobs.kit.processes.Home;
import io.nearline.localcluster.kit.processes.ForkedKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the join's replays and {@code publish tracking} put on Kafka, read back from a real broker: each
 * request on the same partition of both input topics, each file's order kept in every partition, bad
 * lines dead-lettered with where they came from, the input topics ending where {@code endsAfter} said
 * they would, and live traffic re-stamped to the wall clock in the files' own order.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class JoinKafkaIT {

    private static final int PARTITIONS = 3;
    private static final Path SCENARIOS = Path.of("src/test/resources/scenarios/join");

    @TempDir
    Path dir;

    private ForkedKafka broker;
    private KafkaClient kafka;
    private JoinSettings settings;
    private final JoinInputs inputs =
            JoinInputs.read(SCENARIOS.resolve("basic-index.jsonl"), SCENARIOS.resolve("basic-broker.jsonl"));

    @BeforeEach
    void start() throws Exception {
        broker = ForkedKafka.start(
                Home.kafkaJar(Path.of("../..").toAbsolutePath().normalize()), dir.resolve("kafka"));
        kafka = KafkaClient.plaintext(broker.bootstrapServers());
        settings = JoinSettings.from(Config.of(Map.of("kafka.bootstrap-servers", broker.bootstrapServers())));
        JoinKafka.createTopics(kafka, settings, PARTITIONS);
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    /** Per partition, the request ids of a topic's records in offset order, each on the partition of its id. */
    private static Map<Integer, List<String>> byPartition(List<ConsumerRecord<byte[], byte[]>> records) {
        Map<Integer, List<String>> out = new LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            String requestId = new String(r.key(), StandardCharsets.UTF_8);
            assertEquals(JoinPartitions.of(requestId, PARTITIONS), r.partition(), requestId + " on its partition");
            out.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(requestId);
        }
        return out;
    }

    /** Per partition, the request ids of {@code events} in file order, as they should arrive. */
    private static Map<Integer, List<String>> expected(List<? extends Events.Input> events) {
        Map<Integer, List<String>> out = new LinkedHashMap<>();
        events.forEach(e -> out.computeIfAbsent(JoinPartitions.of(e.requestId(), PARTITIONS), p -> new ArrayList<>())
                .add(e.requestId()));
        return out;
    }

    @Test
    void eachRequestOnOnePartitionOfBothTopicsInFileOrderAndBadLinesDeadLettered() {
        assertTrue(!inputs.badLines().isEmpty(), "the scenario has bad lines");
        AtomicLong told = new AtomicLong();
        long sent = JoinKafka.send(kafka, settings, PARTITIONS, inputs, told::incrementAndGet);
        assertEquals(inputs.events(), sent);
        assertEquals(inputs.events() + inputs.badLines().size(), told.get(), "each told, bad lines too");

        assertEquals(expected(inputs.fragments()), byPartition(KafkaTopics.readAll(kafka, settings.indexTopic())));
        assertEquals(expected(inputs.brokers()), byPartition(KafkaTopics.readAll(kafka, settings.brokerTopic())));
        assertEquals(JoinKafka.endsAfter(settings, PARTITIONS, inputs), JoinKafka.currentEnds(kafka, settings));

        List<String> deadLetters = JoinKafka.deadLetters(kafka, settings);
        assertEquals(inputs.badLines().size(), deadLetters.size());
        JoinInputs.BadLine first = inputs.badLines().get(0);
        assertTrue(
                deadLetters.stream().anyMatch(d -> d.contains(first.file().toString()) && d.contains(first.text())),
                "the line and its file: " + deadLetters);
    }

    @Test
    void liveTrafficIsReStampedToTheClockInTheFilesOrder() throws Exception {
        JoinInputs valid = inputs.valid();
        long start = System.currentTimeMillis() + 200;
        long sent = JoinKafka.sendLive(kafka, settings, PARTITIONS, valid, start, () -> {});
        assertEquals(valid.events(), sent);

        long first = Math.min(
                valid.fragments().stream().mapToLong(Events.Input::ts).min().orElseThrow(),
                valid.brokers().stream().mapToLong(Events.Input::ts).min().orElseThrow());
        List<ConsumerRecord<byte[], byte[]>> index = KafkaTopics.readAll(kafka, settings.indexTopic());
        assertEquals(expected(valid.fragments()), byPartition(index));
        for (ConsumerRecord<byte[], byte[]> r : index) {
            Events.Fragment f =
                    (Events.Fragment) TrackingCodec.decodeFragment(r.value()).event();
            Events.Fragment original = valid.fragments().stream()
                    .filter(o -> o.requestId().equals(f.requestId()) && o.node().equals(f.node()))
                    .findFirst()
                    .orElseThrow();
            assertEquals(original.ts() - first + start, f.ts(), "shifted by the same amount: " + f.requestId());
            assertTrue(r.timestamp() >= start - 1_000, "sent no earlier than due (record time " + r.timestamp() + ")");
        }
    }
}
