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
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.testkit.Printed;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.cdcreference.ReplayInput;
import io.nearline.localcluster.cdcreplay.ReplayCdcOptions;
import io.nearline.localcluster.kafka.EmbeddedKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code publish cdc --format debezium} and {@code collect cdc} against a real broker, through a cluster
 * file that holds only the broker's address: Debezium's records sent, captured back, and the capture
 * checked by {@code check} against the hand-checked state of the scenario it came from.
 */
class CdcCaptureCommandsIT {

    private static final Path SCENARIOS = Path.of("../local-cluster/cdc-reference/src/test/resources/scenarios/cdc")
            .toAbsolutePath();
    private static final Path EVENTS = SCENARIOS.resolve("debezium-mixed.jsonl");

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aCaptureOfPublishedDebeziumRecordsReplaysToTheSameState() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"))) {
            Path cluster = clusterFile(kafka.bootstrapServers());
            // three partitions: the capture must keep each key's records in order across them
            KafkaTopics.createTopics(kafka.bootstrapServers(), Map.of("nearline.cdc", 3));
            Printed publish = CliRun.of(
                    "publish",
                    "cdc",
                    "--format",
                    "debezium",
                    "--events",
                    EVENTS.toString(),
                    "--cluster",
                    cluster.toString());
            assertEquals(0, publish.exit(), publish.out());

            Path capture = dir.resolve("capture.jsonl");
            Printed collect = CliRun.of("collect", "cdc", "--out", capture.toString(), "--cluster", cluster.toString());
            assertEquals(0, collect.exit(), collect.out());

            List<ReplayInput.Line> sent =
                    ReplayInput.read(List.of(EVENTS), ReplayCdcOptions.Format.debezium.decoder()).stream()
                            .filter(l -> l.record() != null)
                            .toList();
            List<String> captured = Files.readAllLines(capture);
            assertEquals(sent.size(), captured.size(), "one line per record sent");
            assertEquals(
                    sent.stream().filter(l -> l.record().value() == null).count(),
                    captured.stream().filter(l -> l.endsWith("\"value\":null}")).count(),
                    "the tombstones kept");
            Printed check = CliRun.of(
                    "check",
                    "--format",
                    "debezium",
                    "--events",
                    capture.toString(),
                    "--state",
                    SCENARIOS.resolve("debezium-mixed.state.jsonl").toString());
            assertEquals(0, check.exit(), check.out());
            assertTrue(check.out().contains("keys checked 8"), check.out());
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aTopicOfRecordsThatAreNotJsonIsRefusedNamingTheRecord() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"))) {
            Path cluster = clusterFile(kafka.bootstrapServers());
            try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(kafka.bootstrapServers())) {
                producer.send(new ProducerRecord<>("avro.cdc", new byte[] {1}, new byte[] {0, (byte) 0xff, 2}))
                        .get();
            }
            Printed collect = CliRun.of(
                    "collect",
                    "cdc",
                    "--topic",
                    "avro.cdc",
                    "--out",
                    dir.resolve("x.jsonl").toString(),
                    "--cluster",
                    cluster.toString());
            assertEquals(2, collect.exit(), collect.out());
            assertTrue(collect.out().contains("partition 0 offset 0 of avro.cdc is not JSON"), collect.out());
        }
    }

    /** A cluster file with the broker's address alone (the store is the embedded default). */
    private Path clusterFile(String bootstrapServers) throws Exception {
        Path cluster = Files.createDirectories(dir.resolve("cluster"));
        Files.writeString(
                cluster.resolve("cluster.yaml"),
                "kafka:\n  bootstrap-servers: " + bootstrapServers + "\nstore: rocksdb\npackage-dir: "
                        + cluster.resolve("packages") + "\n");
        return cluster;
    }
}
