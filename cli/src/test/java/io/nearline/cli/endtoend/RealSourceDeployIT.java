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

import static io.nearline.common.testkit.Tiers.SLOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cli.CliRun;
import io.nearline.common.testkit.Printed;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ConnectRest;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.localcluster.cluster.ClusterDatabase;
import io.nearline.localcluster.databases.MariadbServer;
import io.nearline.localcluster.databases.PostgresServer;
import io.nearline.localcluster.databases.SqlWorkload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A real database as the source of truth, end to end on the local cluster: {@code cluster up --postgres}
 * (or {@code --mysql}: MariaDB) with a Flink session, Debezium's connector deployed to the cluster's
 * Kafka Connect worker from its shipped descriptor, the cache updater reading Debezium's JSON, racing
 * SQL writers before and after the connector's snapshot, and {@code check --source} comparing every row
 * of the table with the live cache. Negative control: a change made while no connector runs is named.
 */
@Tag(SLOW)
class RealSourceDeployIT extends LocalClusterIT {

    @ParameterizedTest
    @ValueSource(strings = {"postgres", "mysql"})
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void aTableWrittenByRacingWritersEndsEqualInTheCache(String kind) throws Exception {
        Optional<String> skip = kind.equals("postgres") ? PostgresServer.skipReason() : MariadbServer.skipReason();
        Assumptions.assumeTrue(skip.isEmpty(), () -> skip.orElse(""));
        // the databases run as their packages' users (the test runs as root): they must reach the cluster's directory
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        Path cluster = dir.resolve("cluster-" + kind);
        String debezium = descriptor("debezium-" + kind + ".yaml");
        assertEquals(0, nearline("cluster", "up", "--" + kind, "--flink", "--dir", cluster.toString()), err.toString());
        ClusterFile c = ClusterFile.read(cluster);
        Map<String, String> db = c.database(kind);
        try {
            if (kind.equals("mysql")) {
                // a database not set up for capture: exit 2 before Connect is asked, the setting named
                setBinlogFormat(db, "MIXED");
                try {
                    Printed notReady = CliRun.of("deploy", debezium, "--cluster", cluster.toString());
                    assertEquals(2, notReady.exit(), notReady.out());
                    assertTrue(notReady.out().contains("binlog_format=MIXED"), notReady.out());
                } finally {
                    setBinlogFormat(db, "ROW");
                }
            }
            // a connector config the worker refuses: exit 2, the key named
            assertEquals(
                    2,
                    nearline("deploy", debezium, "--cluster", cluster.toString(), "--set", "snapshot.mode=sometimes"));
            assertTrue(err.toString().contains("snapshot.mode"), err.toString());

            // rows before the connector (its snapshot reads them), then changes streamed after it
            SqlWorkload.Result before = sqlWorkload(kind, db, 300, 1);
            assertEquals(0, nearline("deploy", debezium, "--cluster", cluster.toString()), err.toString());
            assertEquals(
                    0,
                    nearline(
                            "deploy",
                            descriptor("cache-updater-flink-session.yaml"),
                            "--cluster",
                            cluster.toString(),
                            "--set",
                            "cdc.format=debezium-json",
                            "--set",
                            "bootstrap.enabled=true"),
                    err.toString());
            SqlWorkload.Result after = sqlWorkload(kind, db, 1500, 2);
            assertTrue(before.committed() + after.committed() > 1000, before + " " + after);
            assertTrue(after.conflicts() > 0, "no writer lost a race: " + after);

            Printed check = checkSource(kind, "couchbase", cluster, "--wait", "180s");
            assertEquals(0, check.exit(), check.out());
            // the connector's whole stream: each of the cluster's tables checked and reported on its own
            for (String table : ClusterFile.tables(db)) {
                assertTrue(
                        java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(table) + "\\s+OK")
                                .matcher(check.out())
                                .find(),
                        table + " not reported OK: " + check.out());
            }
            assertEquals(3, ClusterFile.tables(db).size(), "the cluster's three tables: " + db);
            java.util.regex.Matcher checked = java.util.regex.Pattern.compile("keys checked (\\d+), divergent 0")
                    .matcher(check.out());
            assertTrue(checked.find() && Integer.parseInt(checked.group(1)) >= 20, check.out());
            // every key the stream deleted too: the captured topic names them, the table does not have them
            Path capture = dir.resolve(kind + "-capture.jsonl");
            assertEquals(0, nearline("collect", "cdc", "--cluster", cluster.toString(), "--out", capture.toString()));
            Printed withDeletes = checkSource(
                    kind,
                    "couchbase",
                    cluster,
                    "--events",
                    capture.toString(),
                    "--format",
                    "debezium",
                    "--wait",
                    "60s");
            assertEquals(0, withDeletes.exit(), withDeletes.out());

            // the bootstrap from the database while writers race: the cache still ends equal to the table
            CompletableFuture<SqlWorkload.Result> racing = CompletableFuture.supplyAsync(() -> {
                try {
                    return sqlWorkload(kind, db, 600, 3);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Printed bootstrap = CliRun.of("bootstrap", "run", "--from", kind, "--cluster", cluster.toString());
            assertEquals(0, bootstrap.exit(), bootstrap.out());
            assertTrue(bootstrap.out().contains("published to nearline.bootstrap"), bootstrap.out());
            racing.get(2, TimeUnit.MINUTES);
            Printed afterBootstrap = checkSource(kind, "couchbase", cluster, "--wait", "120s");
            assertEquals(0, afterBootstrap.exit(), afterBootstrap.out());

            if (kind.equals("postgres")) {
                assertTrue(
                        ClusterDatabase.POSTGRES.slots(db).stream().anyMatch(s -> s.startsWith("nearline: ")),
                        "no slot nearline: " + ClusterDatabase.POSTGRES.slots(db));
            }

            // negative control: with the connector gone, a committed change never reaches the cache
            ConnectRest.delete(c.connectRest(), "/connectors/nearline-debezium-" + kind);
            // the worker stops the task after it answers: wait until the database has no reader left
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (readers(kind, db) > 0 && System.nanoTime() < deadline) {
                if (kind.equals("mysql")) {
                    endBinlogDumps(db); // MariaDB keeps a dump thread until it writes to the gone reader
                }
                Thread.sleep(200);
            }
            assertEquals(0, readers(kind, db), "the connector still reads the " + kind + " log");
            try (Connection conn = SourceDatabase.connect(db);
                    Statement s = conn.createStatement()) {
                s.executeUpdate("INSERT INTO items (id, name, qty) VALUES (1000001, 'unseen', 1)");
            }
            Printed missed = checkSource(kind, "couchbase", cluster);
            assertEquals(1, missed.exit(), missed.out());
            assertTrue(missed.out().contains("MISSING 1"), missed.out());

            if (kind.equals("mysql")) {
                // the bootstrap repairs what the stream missed: its snapshot holds the row
                Printed repair = CliRun.of("bootstrap", "run", "--from", kind, "--cluster", cluster.toString());
                assertEquals(0, repair.exit(), repair.out());
                Printed repaired = checkSource(kind, "couchbase", cluster, "--wait", "60s");
                assertEquals(0, repaired.exit(), repaired.out());
            } else {
                // PostgreSQL's snapshot point comes from the connector: none running, the bootstrap says so
                Printed noConnector =
                        CliRun.of("bootstrap", "run", "--from", kind, "--cluster", cluster.toString(), "--wait", "5s");
                assertEquals(1, noConnector.exit(), noConnector.out());
                assertTrue(noConnector.out().contains("did not stream the bootstrap's watermark"), noConnector.out());
            }
        } finally {
            Printed down = CliRun.of("cluster", "down", "--dir", cluster.toString());
            assertEquals(0, down.exit(), down.out());
            if (kind.equals("postgres")) {
                assertTrue(down.out().contains("replication slot(s) nearline dropped"), down.out());
            }
        }
        for (Map.Entry<String, Long> p : c.processes().entrySet()) {
            assertFalse(Daemons.alive(p.getValue(), cluster), p.getKey() + " is still running");
        }
    }

    private static void setBinlogFormat(Map<String, String> db, String format) throws Exception {
        try (Connection conn = SourceDatabase.connect(db);
                Statement s = conn.createStatement()) {
            s.execute("SET GLOBAL binlog_format = '" + format + "'");
        }
    }

    /** Readers of the database's change log: PostgreSQL's active slots, MariaDB's binlog dump threads. */
    private static int readers(String kind, Map<String, String> db) throws Exception {
        String sql = kind.equals("postgres")
                ? "SELECT count(*) FROM pg_replication_slots WHERE active"
                : "SELECT count(*) FROM information_schema.PROCESSLIST WHERE COMMAND LIKE 'Binlog Dump%'";
        try (Connection conn = SourceDatabase.connect(db);
                Statement s = conn.createStatement();
                java.sql.ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getInt(1);
        }
    }

    private static void endBinlogDumps(Map<String, String> db) throws Exception {
        try (Connection conn = SourceDatabase.connect(db);
                Statement s = conn.createStatement();
                java.sql.ResultSet r = s.executeQuery(
                        "SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND LIKE 'Binlog Dump%'")) {
            java.util.List<Long> ids = new java.util.ArrayList<>();
            while (r.next()) {
                ids.add(r.getLong(1));
            }
            for (long id : ids) {
                try (Statement kill = conn.createStatement()) {
                    kill.execute("KILL " + id);
                } catch (java.sql.SQLException gone) {
                    // ended by itself meanwhile
                }
            }
        }
    }
}
