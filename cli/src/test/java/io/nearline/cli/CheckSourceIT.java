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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.testkit.Printed;
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
            s.execute("CREATE TABLE links (a int, b int, w int, PRIMARY KEY (a, b))");
            s.execute("INSERT INTO links VALUES (1, 2, 12)");
            s.execute("CREATE TABLE notes (n int, body text)"); // no primary key
        }
        cluster = clusterFile("one", "  table: public.items");
    }

    /** A cluster directory whose file's postgres section is this database with {@code tableLines}. */
    private Path clusterFile(String name, String... tableLines) throws Exception {
        Path c = Files.createDirectories(dir.resolve("cluster-" + name));
        List<String> lines = new java.util.ArrayList<>(List.of(
                "kafka:",
                "  bootstrap-servers: 127.0.0.1:9",
                "store: rocksdb",
                "package-dir: " + c.resolve("packages"),
                "postgres:",
                "  jdbc-url: " + server.jdbcUrl(),
                "  user: " + PostgresServer.USER));
        lines.addAll(List.of(tableLines));
        Files.write(c.resolve("cluster.yaml"), lines);
        return c;
    }

    @AfterAll
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aCacheEqualToTheTablePassesAndTheColumnsNotComparedAreNamed() throws Exception {
        Printed run = check(state(ROW_1, ROW_2));
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
        Printed resurrected = check(
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
        Printed run = CliRun.of(
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

    /** Several tables: each key names its table, each table is checked and reported on its own. */
    @Test
    void severalTablesAreEachCheckedAndReported() throws Exception {
        Path two = clusterFile("two", "  tables: public.items,public.links");
        String link = line("public.links:1:2", 8, "{\"a\":1,\"b\":2,\"w\":12}");
        Path json = dir.resolve("two.json");
        Printed ok = check(two, state(prefixed(ROW_1), prefixed(ROW_2), link), "--summary-json", json.toString());
        assertEquals(0, ok.exit(), ok.out());
        assertTrue(ok.out().contains("public.items             OK"), ok.out());
        assertTrue(ok.out().contains("public.links             OK"), ok.out());
        JsonNode tables = new ObjectMapper().readTree(json.toFile()).get("tables");
        assertEquals(1, tables.get("public.links").get("keysChecked").asInt(), tables.toString());

        Printed missing = check(two, state(prefixed(ROW_1), prefixed(ROW_2)));
        assertEquals(1, missing.exit(), missing.out());
        assertTrue(missing.out().contains("public.links             DIVERGED"), missing.out());
        assertTrue(missing.out().contains("public.items             OK"), missing.out());
        // the keys of one table as the job wrote them before tables were listed: every row missing
        assertEquals(1, check(two, state(ROW_1, ROW_2, link)).exit());
    }

    /** A key rule the database contradicts is refused before anything is compared, in one line. */
    @Test
    void badTableSettingsAreRefusedInOneLine() throws Exception {
        assertRefused(
                clusterFile("nosuchcolumn", "  tables: public.items", "  table.public.items.key-fields: code"),
                "key field 'code' of table public.items is not one of its columns");
        assertRefused(clusterFile("nokey", "  tables: public.notes"), "table public.notes has no primary key");
        assertRefused(clusterFile("nosuchtable", "  tables: public.itemz"), "table public.itemz is not in");
        assertRefused(clusterFile("unqualified", "  tables: items"), "must be named SCHEMA.TABLE");
    }

    private void assertRefused(Path clusterDir, String expected) throws Exception {
        Printed run = check(clusterDir, state(ROW_1));
        assertEquals(2, run.exit(), run.out());
        assertTrue(run.out().contains(expected), run.out());
        assertFalse(run.out().contains("\tat "), "no stack trace: " + run.out());
    }

    /** A state-dump line with its key prefixed by public.items, as with several tables. */
    private static String prefixed(String line) {
        return line.replace("{\"key\":\"", "{\"key\":\"public.items:");
    }

    private Printed check(Path clusterDir, Path state, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of(
                "check", "--source", "postgres", "--cluster", clusterDir.toString(), "--state", state.toString()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    private Printed check(Path state, String... more) {
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
