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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cli.CliRun;
import io.nearline.common.config.Config;
import io.nearline.common.testkit.Printed;
import io.nearline.jobs.client.CommitPosition;
import io.nearline.jobs.client.JdbcRowSource;
import io.nearline.jobs.client.NearlineClient;
import io.nearline.jobs.client.Read;
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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The client library against the local cluster: PostgreSQL or MariaDB captured by Debezium's connector
 * into the cache updater on a Flink session, which publishes consistent-through in Redis.
 * <ul>
 *   <li>read-your-writes: with writers racing, a commit's position is waited for, and the row is then in
 *       the cache;
 *   <li>the control: with the connector paused, a commit's position is never passed (the wait times
 *       out), and a bounded read goes to the database once the cache is older than its bound
 *       ({@code bin/nearline get --max-staleness});
 *   <li>resumed, the commit arrives and the cache ends equal to every table.
 * </ul>
 */
class ClientIT extends LocalClusterIT {

    private static final Duration PUBLISH = Duration.ofMillis(200);
    /** The topic's 2 partitions, each spread by key over the Flink write operator's 2 tasks (the descriptor's parallelism). */
    private static final int ENTRIES = 2 * 2;

    @ParameterizedTest
    @ValueSource(strings = {"postgres", "mysql"})
    void readYourWritesAndBoundedReadsAgainstTheRunningJob(String kind) throws Exception {
        Optional<String> skip = kind.equals("postgres") ? PostgresServer.skipReason() : MariadbServer.skipReason();
        Assumptions.assumeTrue(skip.isEmpty(), () -> skip.orElse(""));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        Path cluster = dir.resolve("cluster-" + kind);
        assertEquals(
                0,
                nearline("cluster", "up", "--" + kind, "--flink", "--store", "redis", "--dir", cluster.toString()),
                err.toString());
        ClusterFile c = ClusterFile.read(cluster);
        Map<String, String> db = c.database(kind);
        String connector = "/connectors/nearline-debezium-" + kind;
        try {
            sqlWorkload(kind, db, 100, 1);
            assertEquals(
                    0, nearline("deploy", descriptor("debezium-" + kind + ".yaml"), "--cluster", cluster.toString()));
            Map<String, String> publishing =
                    Map.of("write.consistent-through.publish-every", PUBLISH.toMillis() + "ms");
            assertEquals(0, deployDebeziumCacheUpdater(cluster, publishing), err.toString());
            sqlWorkload(kind, db, 100, 2);
            assertEquals(
                    0, checkSource(kind, "redis", cluster, "--wait", "180s").exit());

            SourceDatabase database = SourceDatabase.fromClusterFile(cluster, kind);
            String items = ClusterFile.tables(db).stream()
                    .filter(t -> t.endsWith(".items"))
                    .findFirst()
                    .orElseThrow();
            try (JdbcRowSource rows = new JdbcRowSource(kind, database::connect, database.keys());
                    NearlineClient client = NearlineClient.open(
                            Config.of(c.jobSettings(
                                    Map.of("cdc.format", "debezium-json"), Map.of("client.entries", "" + ENTRIES))),
                            rows);
                    Connection conn = database.connect();
                    Statement s = conn.createStatement()) {
                long id = 900_001; // beyond the workload's ids: no racing writer deletes it
                s.executeUpdate("INSERT INTO " + items + " (id, name, qty) VALUES (" + id + ", 'first', 1)");

                // read-your-writes while writers race
                CompletableFuture<SqlWorkload.Result> racing = race(kind, db, 3);
                s.executeUpdate("UPDATE " + items + " SET name = 'mine' WHERE id = " + id);
                long mine = positionNow(kind, s);
                client.awaitCommit(items, mine, Duration.ofSeconds(90), Duration.ofMillis(50));
                assertTrue(
                        client.get(items, List.of(Long.toString(id)))
                                .orElseThrow()
                                .row()
                                .contains("\"mine\""),
                        "the commit waited for is in the cache");
                racing.get(3, TimeUnit.MINUTES);

                // the control: the connector paused, the commit never reaches the cache
                ConnectRest.put(c.connectRest(), connector + "/pause", Map.of()); // its task stays, its position too
                awaitConnector(c, connector, "PAUSED");
                s.executeUpdate("UPDATE " + items + " SET name = 'unseen' WHERE id = " + id);
                long unseen = positionNow(kind, s);
                assertThrows(
                        TimeoutException.class,
                        () -> client.awaitCommit(items, unseen, Duration.ofSeconds(3), Duration.ofMillis(50)));
                Read bounded = awaitReadFromTheDatabase(client, items, id);
                assertTrue(bounded.row().contains("\"unseen\""), bounded.row());
                Printed get = CliRun.of(
                        "get",
                        "--cluster",
                        cluster.toString(),
                        "--table",
                        items,
                        "--max-staleness",
                        "1s",
                        Long.toString(id));
                System.out.println(get.out()); // docs/reading.md shows it
                assertEquals(0, get.exit(), get.out());
                assertTrue(get.out().contains("from the database") && get.out().contains("unseen"), get.out());

                // resumed: the commit arrives
                ConnectRest.put(c.connectRest(), connector + "/resume", Map.of());
                awaitConnector(c, connector, "RUNNING");
                racing = race(kind, db, 4); // later changes on every partition move each one past the commit
                client.awaitCommit(items, unseen, Duration.ofSeconds(90), Duration.ofMillis(50));
                racing.get(3, TimeUnit.MINUTES);
                assertTrue(client.get(items, List.of(Long.toString(id)))
                        .orElseThrow()
                        .row()
                        .contains("\"unseen\""));
                assertTrue(client.counts().readsThrough() >= 1);
            }
            Printed end = checkSource(kind, "redis", cluster, "--wait", "180s");
            assertEquals(0, end.exit(), end.out());
        } finally {
            Printed down = CliRun.of("cluster", "down", "--dir", cluster.toString());
            assertEquals(0, down.exit(), down.out());
        }
    }

    private static CompletableFuture<SqlWorkload.Result> race(String kind, Map<String, String> db, long seed) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return sqlWorkload(kind, db, 200, seed);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** The log's position now, after the statement's own commit (autocommit), as the application takes it. */
    private static long positionNow(String kind, Statement s) throws Exception {
        if (kind.equals("postgres")) {
            try (ResultSet r = s.executeQuery("SELECT pg_current_wal_lsn()::text")) {
                r.next();
                return CommitPosition.postgres(r.getString(1));
            }
        }
        try (ResultSet r = s.executeQuery("SHOW MASTER STATUS")) {
            r.next();
            return CommitPosition.binlog(r.getString(1), r.getLong(2));
        }
    }

    /** A one-second bound read until the paused stream's cache is older than it: at most 20 s. */
    private static Read awaitReadFromTheDatabase(NearlineClient client, String table, long id) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        Read read;
        do {
            read = client.read(table, Duration.ofSeconds(1), List.of(Long.toString(id)));
            if (read.from() == Read.From.DATABASE) {
                return read;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("a one-second bound was still served from the cache: " + read);
    }
}
