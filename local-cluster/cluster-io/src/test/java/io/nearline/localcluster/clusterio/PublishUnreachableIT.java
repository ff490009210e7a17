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
package io.nearline.localcluster.clusterio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.testkit.LocalProcesses;
import io.nearline.common.testkit.Printed;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.localcluster.cluster.ClusterCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code publish} to a cluster whose broker does not answer (a port on loopback nobody listens on):
 * one line naming the broker and the command that checks the cluster, exit 2, within seconds, not
 * a producer's minute of retries; a file it cannot read is named before the broker is tried.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PublishUnreachableIT {

    @TempDir
    Path dir;

    private static Printed run(Object command, String... args) {
        return Printed.by(() -> ClusterException.commandLine(command).execute(args));
    }

    @Test
    void aBrokerThatDoesNotAnswerIsNamedInSecondsAndAMissingFileFirst() throws Exception {
        String kafka = "127.0.0.1:" + LocalProcesses.freePort();
        Path cluster = dir.resolve("c");
        Printed init = run(
                new ClusterCommand(),
                "init",
                "--dir",
                cluster.toString(),
                "--kafka",
                kafka,
                "--redis",
                "redis://127.0.0.1:1");
        assertEquals(0, init.exit(), init.out());
        Path events = Files.writeString(
                dir.resolve("events.jsonl"),
                "{\"table\": \"profile\", \"key\": \"a\", \"partition\": 0, \"scn\": 1, \"op\": \"UPSERT\", "
                        + "\"schemaVersion\": 1, \"payload\": \"x\"}\n");

        Printed missing = run(
                new PublishCommand(),
                "cdc",
                "--events",
                dir.resolve("nope.jsonl").toString(),
                "--cluster",
                cluster.toString());
        assertEquals(2, missing.exit(), missing.out());
        assertTrue(missing.out().contains("cannot read " + dir.resolve("nope.jsonl")), missing.out());

        long started = System.nanoTime();
        Printed unreachable =
                run(new PublishCommand(), "cdc", "--events", events.toString(), "--cluster", cluster.toString());
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        assertEquals(2, unreachable.exit(), unreachable.out());
        assertTrue(
                unreachable.out().contains("error: the cluster's Kafka at " + kafka + " does not answer"),
                unreachable.out());
        assertTrue(unreachable.out().contains("'bin/nearline cluster check --cluster "), unreachable.out());
        assertTrue(seconds < 40, "named in " + seconds + " s");
    }
}
