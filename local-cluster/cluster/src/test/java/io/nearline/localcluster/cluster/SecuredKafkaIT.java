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
package io.nearline.localcluster.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.config.Config;
import io.nearline.common.config.KafkaSecurity;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.kafka.BrokerSecurity;
import io.nearline.localcluster.kafka.EmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tools' Kafka clients against a broker that takes only SASL over TLS, secured as {@code cluster up
 * --kafka-security sasl-ssl} secures it (a certificate made by keytool, the user nearline): the cluster
 * file's settings connect, write and read; a plaintext client, a wrong password and a client that does
 * not trust the broker's certificate are each turned away; a SCRAM user connects by the same keys.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SecuredKafkaIT {

    @TempDir
    Path dir;

    private EmbeddedKafka broker;
    private Map<String, String> clientKeys;

    @BeforeEach
    void start() throws Exception {
        Path file = LocalKafkaSecurity.brokerFile(dir, "127.0.0.1", KafkaSecurity.Protocol.SASL_SSL);
        broker = EmbeddedKafka.start(dir.resolve("kafka"), "127.0.0.1", 0, 0, BrokerSecurity.read(file));
        clientKeys = LocalKafkaSecurity.clusterFileKeys(dir, KafkaSecurity.Protocol.SASL_SSL);
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    /** A client with the cluster file's keys, some replaced. */
    private KafkaClient client(Map<String, String> replaced) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("kafka.bootstrap-servers", broker.bootstrapServers());
        clientKeys.forEach((k, v) -> settings.put("kafka." + k, v));
        settings.putAll(replaced);
        return KafkaClient.from(Config.of(settings));
    }

    @Test
    void theClusterFilesKeysWriteAndReadAndNothingElseGetsIn() throws Exception {
        KafkaClient kafka = client(Map.of());
        KafkaTopics.createTopics(kafka, Map.of("secured", 2));
        try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(kafka)) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(
                        "secured", ("k" + i).getBytes(StandardCharsets.UTF_8), new byte[] {(byte) i}));
            }
        }
        List<ConsumerRecord<byte[], byte[]>> read = KafkaTopics.readToEnd(kafka, "secured", Duration.ofSeconds(60));
        assertEquals(10, read.size());

        // negative controls: each of these is turned away by the broker, and says why
        Path wrong = Files.writeString(dir.resolve("wrong.password"), "not-the-password");
        Map<String, KafkaClient> refused = Map.of(
                "plaintext", KafkaClient.plaintext(broker.bootstrapServers()),
                "wrong password", client(Map.of("kafka.sasl.password", "file:" + wrong)),
                "no truststore", client(Map.of("kafka.ssl.truststore", "", "kafka.ssl.truststore-password", "")));
        Map<String, String> why = new LinkedHashMap<>();
        refused.forEach((what, client) -> why.put(
                what,
                assertThrows(
                                IllegalStateException.class,
                                () -> KafkaTopics.brokers(client, Duration.ofSeconds(5)),
                                what)
                        .getMessage()));
        assertTrue(why.get("wrong password").contains("Authentication failed"), why.toString());
    }

    @Test
    void aScramUserConnectsByTheSameKeys() throws Exception {
        try (Admin admin = broker.admin()) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                            "scram-user", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), "scram-pw")))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
        Path password = Files.writeString(dir.resolve("scram.password"), "scram-pw");
        KafkaClient scram = client(Map.of(
                "kafka.sasl.mechanism", "scram-sha-512",
                "kafka.sasl.username", "scram-user",
                "kafka.sasl.password", "file:" + password));
        // SCRAM credentials reach the broker's cache shortly after the change is committed
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                assertEquals(1, KafkaTopics.brokers(scram, Duration.ofSeconds(10)));
                break;
            } catch (IllegalStateException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                Thread.sleep(500);
            }
        }
    }
}
