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
package io.nearline.cli.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.cli.CliRun;
import io.nearline.common.testkit.Printed;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ConnectRest;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.localcluster.databases.MariadbServer;
import io.nearline.localcluster.databases.PostgresServer;
import io.nearline.localcluster.databases.SqlWorkload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code resync} on the local cluster: PostgreSQL or MariaDB captured by Debezium's connector into the
 * cache updater on a Flink session, a Redis cache. A stretch of the stream is lost while writers race
 * (PostgreSQL: the replication slot advanced past their changes; MariaDB: the connector's offsets moved
 * past them): the cache then differs from the tables (the control).
 * {@code resync} of each table, with writers racing again, asks the connector for an incremental
 * snapshot, follows it and sweeps the deleted rows' keys; the cache ends equal to every table, rows
 * deleted inside the lost stretch included ({@code verify} lists the cache's keys).
 */
class ResyncIT extends LocalClusterIT {

    @ParameterizedTest
    @ValueSource(strings = {"postgres", "mysql"})
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void aLostStretchIsRepairedTableByTableWhileWritersRace(String kind) throws Exception {
        Optional<String> skip = kind.equals("postgres") ? PostgresServer.skipReason() : MariadbServer.skipReason();
        Assumptions.assumeTrue(skip.isEmpty(), () -> skip.orElse(""));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        Path cluster = dir.resolve("cluster-" + kind);
        String debezium = descriptor("debezium-" + kind + ".yaml");
        assertEquals(
                0,
                nearline("cluster", "up", "--" + kind, "--flink", "--store", "redis", "--dir", cluster.toString()),
                err.toString());
        ClusterFile c = ClusterFile.read(cluster);
        Map<String, String> db = c.database(kind);
        try {
            sqlWorkload(kind, db, 300, 1);
            assertEquals(0, nearline("deploy", debezium, "--cluster", cluster.toString()), err.toString());
            assertEquals(0, deployDebeziumCacheUpdater(cluster, Map.of()), err.toString());
            sqlWorkload(kind, db, 300, 2);
            Printed streamed = checkSource(kind, "redis", cluster, "--wait", "180s");
            assertEquals(0, streamed.exit(), "the live stream keeps the cache right: " + streamed.out());

            SqlWorkload.Result lost = loseAStretchPastTheOffsets(kind, c, db);
            sqlWorkload(kind, db, 100, 4);
            Printed lossShows = checkSource(kind, "redis", cluster, "--wait", "20s");
            assertEquals(
                    1, lossShows.exit(), "the control: the lost stretch leaves the cache wrong: " + lossShows.out());

            // resync each table while writers race
            java.util.concurrent.CompletableFuture<SqlWorkload.Result> racing =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                        try {
                            return sqlWorkload(kind, db, 600, 5);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
            long deleted = 0;
            for (String table : ClusterFile.tables(db)) {
                Path summary = dir.resolve("resync-" + table + ".json");
                Printed resync = CliRun.of(
                        "resync",
                        "--source",
                        kind,
                        "--cluster",
                        cluster.toString(),
                        "--table",
                        table,
                        "--timeout",
                        "3m",
                        "--summary-json",
                        summary.toString());
                System.err.println(resync.out());
                assertEquals(0, resync.exit(), resync.out());
                JsonNode s = new ObjectMapper().readTree(Files.readString(summary));
                assertTrue(s.path("completed").asBoolean(), s.toString());
                assertTrue(s.path("rowsReread").asLong() > 0, s.toString());
                assertEquals(0, s.path("keysLeft").asLong(), s.toString());
                deleted += s.path("keysDeleted").asLong();
            }
            racing.get(2, TimeUnit.MINUTES);
            assertTrue(lost.committed() > 300, "a stretch worth losing: " + lost);
            assertTrue(deleted > 0, "rows deleted inside the lost stretch were swept");

            Printed repaired = checkSource(kind, "redis", cluster, "--wait", "180s");
            assertEquals(0, repaired.exit(), repaired.out());
            Printed verified = CliRun.of(
                    "verify",
                    "--source",
                    kind,
                    "--cluster",
                    cluster.toString(),
                    "--keys-per-round",
                    "0",
                    "--every",
                    "2s",
                    "--in-flight",
                    "4s",
                    "--duration",
                    "10s",
                    "--metrics-port",
                    "0");
            assertEquals(0, verified.exit(), "no row, and no deleted row's key, differs: " + verified.out());
            assertTrue(verified.out().contains(", 0 divergent"), verified.out());
        } finally {
            Printed down = CliRun.of("cluster", "down", "--dir", cluster.toString());
            assertEquals(0, down.exit(), down.out());
        }
    }

    /**
     * {@code tables add}: a table the pipeline did not capture joins it while writers race on the others
     * and on it. It ends equal in the cache; the other tables are not read again (no new snapshot read
     * of them in the cache's topic).
     */
    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void aTableAddedToARunningPipelineIsReadAloneWhileWritersRace() throws Exception {
        Optional<String> skip = PostgresServer.skipReason();
        Assumptions.assumeTrue(skip.isEmpty(), () -> skip.orElse(""));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        Path cluster = dir.resolve("cluster-add");
        assertEquals(
                0,
                nearline("cluster", "up", "--postgres", "--flink", "--store", "redis", "--dir", cluster.toString()),
                err.toString());
        ClusterFile c = ClusterFile.read(cluster);
        Map<String, String> db = c.database("postgres");
        String job = descriptor("cache-updater-flink-session-redis.yaml");
        try {
            try (Connection conn = SourceDatabase.connect(db);
                    Statement s = conn.createStatement()) {
                s.execute("CREATE TABLE notes (id int PRIMARY KEY, body text)");
                s.execute("INSERT INTO notes SELECT g, 'note ' || g FROM generate_series(1, 500) g");
            }
            sqlWorkload("postgres", db, 200, 1);
            assertEquals(0, nearline("deploy", descriptor("debezium-postgres.yaml"), "--cluster", cluster.toString()));
            assertEquals(
                    0, nearline("deploy", job, "--cluster", cluster.toString(), "--set", "cdc.format=debezium-json"));
            Printed streamed = checkSource("postgres", "redis", cluster, "--wait", "180s");
            assertEquals(0, streamed.exit(), streamed.out());
            long itemReadsBefore = readsOf(c, "items");

            java.util.concurrent.CompletableFuture<SqlWorkload.Result> racing =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                        try {
                            return sqlWorkload("postgres", db, 600, 2);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
            java.util.concurrent.CompletableFuture<Void> notesWriter =
                    java.util.concurrent.CompletableFuture.runAsync(() -> {
                        try (Connection conn = SourceDatabase.connect(db);
                                Statement s = conn.createStatement()) {
                            for (int i = 0; i < 200; i++) {
                                int id = 1 + (i * 37) % 600;
                                s.execute(
                                        i % 5 == 4
                                                ? "DELETE FROM notes WHERE id = " + id
                                                : "INSERT INTO notes VALUES (" + id + ", 'raced " + i + "') "
                                                        + "ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body");
                                Thread.sleep(100);
                            }
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
            Printed add = CliRun.of(
                    "tables",
                    "add",
                    "public.notes",
                    "--cluster",
                    cluster.toString(),
                    "--job",
                    job,
                    "--set",
                    "cdc.format=debezium-json",
                    "--timeout",
                    "3m");
            System.err.println(add.out());
            assertEquals(0, add.exit(), add.out());
            racing.get(3, TimeUnit.MINUTES);
            notesWriter.get(3, TimeUnit.MINUTES);
            try (Connection conn = SourceDatabase.connect(db);
                    Statement s = conn.createStatement()) { // streamed now: the connector captures the table
                s.execute("UPDATE notes SET body = 'after the add' WHERE id = 3");
                s.execute("INSERT INTO notes VALUES (10001, 'inserted after the add')");
            }

            Printed after = checkSource("postgres", "redis", cluster, "--wait", "180s");
            assertEquals(0, after.exit(), after.out());
            assertTrue(
                    java.util.regex.Pattern.compile("public\\.notes\\s+OK")
                            .matcher(after.out())
                            .find(),
                    "the new table is checked: " + after.out());
            assertEquals(itemReadsBefore, readsOf(c, "items"), "items was not read again");
            assertTrue(readsOf(c, "notes") >= 400, "notes was read once, by its snapshot");
        } finally {
            Printed down = CliRun.of("cluster", "down", "--dir", cluster.toString());
            assertEquals(0, down.exit(), down.out());
        }
    }

    /** Snapshot reads of {@code table} in the cache's topic. */
    private static long readsOf(ClusterFile c, String table) {
        return io.nearline.jobs.kit.kafka.KafkaTopics.readAll(c.kafka(), "nearline.cdc").stream()
                .map(r -> r.value() == null ? "" : new String(r.value(), java.nio.charset.StandardCharsets.UTF_8))
                .filter(v -> v.contains("\"op\":\"r\"") && v.contains("\"table\":\"" + table + "\""))
                .count();
    }

    /**
     * The connector stopped, writers racing, its offsets moved to the log's end through Kafka Connect's
     * offsets API (a connector restarted past its offsets), then resumed. On PostgreSQL the slot is
     * advanced to the same position first: the server must still hold what the moved offset names (a
     * connector deleted and deployed again would keep its old offset, which the advanced slot no longer
     * serves, so the loss is made the way the demo makes it).
     */
    private static SqlWorkload.Result loseAStretchPastTheOffsets(String kind, ClusterFile c, Map<String, String> db)
            throws Exception {
        String name = "/connectors/nearline-debezium-" + kind;
        ConnectRest.put(c.connectRest(), name + "/stop", Map.of());
        awaitConnector(c, name, "STOPPED");
        SqlWorkload.Result lost = sqlWorkload(kind, db, 600, 3);
        String offsets = kind.equals("postgres") ? slotAdvancedToTheEnd(db) : binlogEnd(db);
        java.net.http.HttpResponse<String> patched = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(c.connectRest() + name + "/offsets"))
                                .header("Content-Type", "application/json")
                                .method("PATCH", java.net.http.HttpRequest.BodyPublishers.ofString(offsets))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, patched.statusCode(), patched.body());
        ConnectRest.put(c.connectRest(), name + "/resume", Map.of());
        awaitConnector(c, name, "RUNNING");
        return lost;
    }

    /** The slot advanced to the WAL's end once the stopped task has let go of it; that position as an offset. */
    private static String slotAdvancedToTheEnd(Map<String, String> db) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (activeSlots(db) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertEquals(0, activeSlots(db), "the stopped connector still reads the slot");
        try (Connection conn = SourceDatabase.connect(db);
                Statement s = conn.createStatement();
                ResultSet r = s.executeQuery("SELECT lsn - '0/0'::pg_lsn FROM"
                        + " pg_replication_slot_advance('nearline', pg_current_wal_lsn()) AS a(slot, lsn)")) {
            r.next();
            long lsn = r.getLong(1);
            return "{\"offsets\":[{\"partition\":{\"server\":\"nearline-pg\"},\"offset\":{\"lsn\":" + lsn
                    + ",\"lsn_proc\":" + lsn + ",\"lsn_commit\":" + lsn + "}}]}";
        }
    }

    private static String binlogEnd(Map<String, String> db) throws Exception {
        try (Connection conn = SourceDatabase.connect(db);
                Statement s = conn.createStatement();
                ResultSet r = s.executeQuery("SHOW MASTER STATUS")) {
            r.next();
            return "{\"offsets\":[{\"partition\":{\"server\":\"nearline-mysql\"},\"offset\":{\"file\":\""
                    + r.getString(1) + "\",\"pos\":" + r.getLong(2) + "}}]}";
        }
    }

    private static int activeSlots(Map<String, String> db) throws Exception {
        try (Connection conn = SourceDatabase.connect(db);
                Statement s = conn.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM pg_replication_slots WHERE active")) {
            r.next();
            return r.getInt(1);
        }
    }
}
