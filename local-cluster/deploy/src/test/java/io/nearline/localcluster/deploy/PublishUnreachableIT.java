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
package io.nearline.localcluster.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.testkit.LocalProcesses;
import io.nearline.localcluster.cluster.ClusterCommand;
import io.nearline.localcluster.cluster.ClusterException;
import io.nearline.localcluster.kit.console.CliErrors;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code publish} to a cluster whose broker does not answer (a port on loopback nobody listens on):
 * one line naming the broker and the command that checks the cluster, exit 2, within seconds, not
 * a producer's minute of retries; a file it cannot read is named before the broker is tried.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PublishUnreachableIT {

    @TempDir
    Path dir;

    private static String[] run(Object command, String... args) {
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream both = new PrintStream(captured, true, StandardCharsets.UTF_8);
        System.setOut(both);
        try {
            CommandLine cli = ClusterException.shownAsOneLine(CliErrors.install(new CommandLine(command)));
            cli.setErr(new PrintWriter(both, true));
            int exit = cli.execute(args);
            return new String[] {Integer.toString(exit), captured.toString(StandardCharsets.UTF_8)};
        } finally {
            System.setOut(out);
        }
    }

    @Test
    void aBrokerThatDoesNotAnswerIsNamedInSecondsAndAMissingFileFirst() throws Exception {
        String kafka = "127.0.0.1:" + LocalProcesses.freePort();
        Path cluster = dir.resolve("c");
        String[] init = run(
                new ClusterCommand(),
                "init",
                "--dir",
                cluster.toString(),
                "--kafka",
                kafka,
                "--redis",
                "redis://127.0.0.1:1");
        assertEquals("0", init[0], init[1]);
        Path events = Files.writeString(
                dir.resolve("events.jsonl"),
                "{\"table\": \"profile\", \"key\": \"a\", \"partition\": 0, \"scn\": 1, \"op\": \"UPSERT\", "
                        + "\"schemaVersion\": 1, \"payload\": \"x\"}\n");

        String[] missing = run(
                new PublishCommand(),
                "cdc",
                "--events",
                dir.resolve("nope.jsonl").toString(),
                "--cluster",
                cluster.toString());
        assertEquals("2", missing[0], missing[1]);
        assertTrue(missing[1].contains("cannot read " + dir.resolve("nope.jsonl")), missing[1]);

        long started = System.nanoTime();
        String[] unreachable =
                run(new PublishCommand(), "cdc", "--events", events.toString(), "--cluster", cluster.toString());
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        assertEquals("2", unreachable[0], unreachable[1]);
        assertTrue(
                unreachable[1].contains("error: the cluster's Kafka at " + kafka + " does not answer"), unreachable[1]);
        assertTrue(unreachable[1].contains("'bin/nearline cluster check --cluster "), unreachable[1]);
        assertTrue(seconds < 40, "named in " + seconds + " s");
    }
}
