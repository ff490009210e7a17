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
package io.nearline.localcluster.flinkrunner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.flink.CacheUpdaterIo;
import io.nearline.cacheupdater.flink.CacheUpdaterJob;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.config.Config;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.events.ChangeEventCodec;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import io.nearline.common.testkit.ChangeEventGenerator;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.kafka.BrokerSecurity;
import io.nearline.localcluster.kafka.EmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.util.InstantiationUtil;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Flink cache updater against a broker that takes only SASL users: its Kafka password, given by
 * reference, is read by each Kafka client where the job runs, never by the job's main. The job graph
 * (serialized, as a session's JobManager or HA keeps it) is searched for a planted password and holds
 * only the reference; the job still reads every change and writes its dead letters through SASL.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FlinkSecuredKafkaIT {

    private static final String PLANTED = "planted-kafka-password-5b9e0c";

    @TempDir
    Path dir;

    private EmbeddedKafka broker;

    @BeforeEach
    void start() {
        BrokerSecurity sasl = new BrokerSecurity(
                "SASL_PLAINTEXT", null, null, null, null, Map.of("broker", "broker-pw-1d4a", "nearline", PLANTED));
        broker = EmbeddedKafka.start(dir.resolve("kafka"), "127.0.0.1", 0, 0, sasl);
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    @Test
    void theJobGraphHoldsTheReferenceAndTheTasksConnectWithTheSecret() throws Exception {
        Path password = Files.writeString(dir.resolve("kafka.password"), PLANTED + "\n");
        Map<String, String> settings = new HashMap<>(Map.of(
                "kafka.bootstrap-servers", broker.bootstrapServers(),
                "kafka.security.protocol", "sasl-plaintext",
                "kafka.sasl.username", "nearline",
                "kafka.sasl.password", "file:" + password,
                "cdc.topic", "secured.cdc",
                "cdc.dead-letter-topic", "secured.cdc.dlq",
                "cdc.consumer-group", "secured-cache-updater",
                "cache.store", "rocksdb",
                "rocksdb.path", dir.resolve("cache").toString()));
        Config config = Config.of(settings);
        KafkaClient kafka = KafkaClient.from(config);
        KafkaTopics.createTopics(kafka, Map.of("secured.cdc", 2, "secured.cdc.dlq", 1));
        int keys = 40;
        try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(kafka)) {
            for (int key = 0; key < keys; key++) {
                byte[] change =
                        ChangeEventCodec.encode(ChangeEventGenerator.event("k" + key, key % 2, 10 + key, false));
                producer.send(new ProducerRecord<>("secured.cdc", key % 2, null, change));
            }
            producer.send(
                    new ProducerRecord<>("secured.cdc", 0, null, "not a change".getBytes(StandardCharsets.UTF_8)));
        }

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(500);
        CacheUpdaterJob.define(
                env,
                CacheUpdaterIo.kafka(config, CacheUpdaterIo.Inputs.CHANGES, CacheUpdaterIo.Reading.TO_THE_END),
                config);
        StreamGraph graph = env.getStreamGraph();
        String serialized =
                new String(InstantiationUtil.serializeObject(graph.getJobGraph()), StandardCharsets.ISO_8859_1);
        assertFalse(serialized.contains(PLANTED), "the job graph carries the Kafka password");
        assertTrue(serialized.contains("file:" + password), "the job graph carries the reference");
        // control: the search finds a value that the graph does carry, in the same encoding
        assertTrue(serialized.contains("secured-cache-updater"), "the search reads the graph's settings");

        env.executeAsync(graph).getJobExecutionResult().get(2, TimeUnit.MINUTES);

        try (CacheStore store = CacheStores.open(config)) {
            for (int key = 0; key < keys; key++) {
                var stored = CacheRecordCodec.decode(
                        store.get(CacheKey.of("k" + key)).orElseThrow().value());
                assertEquals(10 + key, stored.version().scn().value(), "k" + key);
            }
        }
        List<String> reasons = KafkaTopics.readToEnd(kafka, "secured.cdc.dlq", Duration.ofSeconds(60)).stream()
                .map(r -> DeadLetters.decode(r.value()).getReason().toString())
                .toList();
        assertEquals(List.of("UNDECODABLE"), reasons);
    }
}
