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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nearline.localcluster.databases.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check --source postgres}: a state dump against a real PostgreSQL table, through a cluster file
 * whose {@code postgres:} section names it. Each way a cache can be wrong is planted once and must be
 * named; the right state passes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CheckSourceIT {

    @TempDir
    static Path dir;

    private PostgresServer server;
    private Path cluster;

    private static final String ROW_1 =
            line("1", 5, "{\"id\":1,\"v\":\"one\",\"price\":12.50,\"at\":1700000000000000}");
    private static final String ROW_2 = line("2", 6, "{\"id\":2,\"v\":\"two\",\"price\":null,\"at\":null}");

    @BeforeAll
    void aTableInADatabase() throws Exception {
        assumeTrue(PostgresServer.skipReason().isEmpty(), () -> PostgresServer.skipReason()
                .orElse(""));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        server = PostgresServer.start(dir.resolve("pg"));
        try (Connection c = server.connect();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id int PRIMARY KEY, v text, price numeric(6,2), at timestamp)");
            s.execute("INSERT INTO items VALUES (1, 'one', 12.5, now()), (2, 'two', NULL, NULL)");
        }
        cluster = Files.createDirectories(dir.resolve("cluster"));
        Files.writeString(
                cluster.resolve("cluster.yaml"),
                String.join(
                        "\n",
                        "kafka:",
                        "  bootstrap-servers: 127.0.0.1:9",
                        "store: rocksdb",
                        "package-dir: " + cluster.resolve("packages"),
                        "postgres:",
                        "  jdbc-url: " + server.jdbcUrl(),
                        "  user: " + PostgresServer.USER,
                        "  table: items",
                        ""));
    }

    @AfterAll
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aCacheEqualToTheTablePassesAndTheColumnsNotComparedAreNamed() throws Exception {
        CliRun run = check(state(ROW_1, ROW_2));
        assertEquals(0, run.exit(), run.out());
        assertTrue(run.out().contains("columns compared [id, v, price], not compared [at]"), run.out());
        assertTrue(run.out().contains("keys checked 2, divergent 0"), run.out());
    }

    @Test
    void aDifferentValueAMissingRowAndADeletedKeyStillCachedAreEachNamed() throws Exception {
        assertTrue(check(state(ROW_1.replace("\\\"one\\\"", "\\\"uno\\\""), ROW_2))
                .out()
                .contains("DIFFERENT 1"));
        assertTrue(check(state(ROW_1.replace("12.50", "12.49"), ROW_2)).out().contains("DIFFERENT 1"));
        assertTrue(check(state(ROW_1)).out().contains("MISSING 1"));
        // key 3 was created and deleted: the change log names it, the table does not have it
        Path log = Files.writeString(
                dir.resolve("log.jsonl"),
                "{\"after\":{\"id\":3,\"v\":\"gone\"},\"op\":\"c\",\"source\":{\"connector\":\"postgresql\",\"lsn\":7}}\n"
                        + "{\"before\":{\"id\":3},\"op\":\"d\",\"source\":{\"connector\":\"postgresql\",\"lsn\":9}}\n");
        CliRun resurrected = check(
                state(ROW_1, ROW_2, line("3", 7, "{\"id\":3,\"v\":\"gone\"}")),
                "--events",
                log.toString(),
                "--format",
                "debezium");
        assertEquals(1, resurrected.exit(), resurrected.out());
        assertTrue(resurrected.out().contains("RESURRECTED 1"), resurrected.out());
    }

    @Test
    void aClusterFileWithoutTheSectionIsRefusedInOneLine() throws Exception {
        CliRun run = CliRun.of(
                "check",
                "--source",
                "mysql",
                "--cluster",
                cluster.toString(),
                "--state",
                state(ROW_1).toString());
        assertEquals(2, run.exit(), run.out());
        assertTrue(run.out().contains("has no 'mysql:' section"), run.out());
    }

    private CliRun check(Path state, String... more) {
        List<String> args = new java.util.ArrayList<>(
                List.of("check", "--source", "postgres", "--cluster", cluster.toString(), "--state", state.toString()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    private static Path state(String... lines) throws Exception {
        return Files.write(Files.createTempFile(dir, "state", ".jsonl"), List.of(lines));
    }

    /** A state-dump line of a live row. */
    private static String line(String key, long scn, String payload) {
        return "{\"key\":\"" + key + "\",\"scn\":" + scn + ",\"schemaVersion\":0,\"tombstone\":false,\"payload\":"
                + com.fasterxml.jackson.databind.node.TextNode.valueOf(payload) + "}";
    }
}
