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

import io.nearline.bootstrap.avro.BootstrapKind;
import io.nearline.bootstrap.avro.BootstrapRecord;
import io.nearline.cdcbootstrap.core.BootstrapCodec;
import io.nearline.cdcbootstrap.core.SnapshotRows;
import io.nearline.common.testkit.ChangeEventGenerator;
import io.nearline.jobs.kit.console.CliErrors;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.kafka.EmbeddedKafka;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code bootstrap run} against a real broker, then {@code bootstrap status}; and the schedule's checks. */
class BootstrapCommandIT {

    @TempDir
    Path dir;

    private static int nearline(String... args) {
        return CliErrors.install(new CommandLine(new NearlineCli())).execute(args);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aSnapshotIsPublishedWithMarkersOnEveryPartitionAndTheScheduleIsOk() throws Exception {
        Path snapshot = dir.resolve("snapshot.jsonl");
        ChangeEventGenerator.writeSnapshot(snapshot, 500);
        Path state = dir.resolve("bootstrap.state");
        assertEquals(3, nearline("bootstrap", "status", "--state", state.toString()), "never run: exit 3");
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"))) {
            assertEquals(
                    0,
                    nearline(
                            "bootstrap",
                            "run",
                            "--snapshot",
                            snapshot.toString(),
                            "--partitions",
                            "3",
                            "--set",
                            "kafka.bootstrap-servers=" + kafka.bootstrapServers(),
                            "--set",
                            "bootstrap.chunk-rows=100",
                            "--state",
                            state.toString()));
            Map<BootstrapKind, Integer> kinds = new EnumMap<>(BootstrapKind.class);
            long rowsAnnounced = 0;
            for (ConsumerRecord<byte[], byte[]> r :
                    KafkaTopics.readAll(kafka.bootstrapServers(), "nearline.bootstrap")) {
                BootstrapRecord b = BootstrapCodec.decodeOrNull(r.value());
                kinds.merge(b.getKind(), 1, Integer::sum);
                if (b.getKind() == BootstrapKind.END) {
                    rowsAnnounced += b.getPartitionRows();
                    assertEquals(r.partition(), b.getTopicPartition());
                }
            }
            assertEquals(Map.of(BootstrapKind.BEGIN, 3, BootstrapKind.ROW, 500, BootstrapKind.END, 3), kinds);
            assertEquals(500, rowsAnnounced);
            // published already: running it again does nothing
            assertEquals(
                    0,
                    nearline(
                            "bootstrap",
                            "run",
                            "--snapshot",
                            snapshot.toString(),
                            "--set",
                            "kafka.bootstrap-servers=" + kafka.bootstrapServers(),
                            "--state",
                            state.toString()));
            assertEquals(
                    506,
                    KafkaTopics.readAll(kafka.bootstrapServers(), "nearline.bootstrap")
                            .size());
        }
        assertEquals(0, nearline("bootstrap", "status", "--state", state.toString()), "just ran: OK");
        assertEquals(SnapshotRows.read(snapshot).rows().size(), 500);
    }

    @Test
    void aPeriodNotShorterThanTheTtlIsRefusedNamingBothKeys() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommandLine cli = CliErrors.install(new CommandLine(new NearlineCli()));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(
                "bootstrap",
                "status",
                "--state",
                dir.resolve("s").toString(),
                "--set",
                "bootstrap.period=8d",
                "--set",
                "cache.ttl=7d");
        assertEquals(2, code);
        assertTrue(err.toString().contains("bootstrap.period") && err.toString().contains("cache.ttl"), err.toString());
    }
}
