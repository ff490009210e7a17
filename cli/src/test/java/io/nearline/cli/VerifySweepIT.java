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

import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.cache.RowKey;
import io.nearline.common.store.CacheStore;
import io.nearline.common.testkit.Printed;
import io.nearline.common.version.Version;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.LiveStores;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.localcluster.databases.MariadbServer;
import io.nearline.localcluster.databases.PostgresServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code verify} finds a row the database deleted that the cache still holds (a delete the stream
 * lost), which no read of the table's rows shows: it sweeps the cache's keys of each table, a slice a
 * round. The control is the same cache without the ghost: nothing divergent.
 */
class VerifySweepIT {

    @TempDir
    Path dir;

    @Test
    void aCachedRowTheDatabaseDeletedIsReportedDivergent() throws Exception {
        assumeTrue(PostgresServer.skipReason().isEmpty(), () -> PostgresServer.skipReason()
                .orElse(""));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        try (PostgresServer server = PostgresServer.start(dir.resolve("pg"))) {
            try (Connection c = server.connect();
                    Statement s = c.createStatement()) {
                s.execute("CREATE TABLE items (id int PRIMARY KEY, v text)");
                s.execute("INSERT INTO items SELECT g, 'v' || g FROM generate_series(1, 12) g");
            }
            Path cluster = clusterFile(
                    "postgres",
                    "  jdbc-url: " + server.jdbcUrl(),
                    "  user: " + PostgresServer.USER,
                    "  table: public.items");
            String prefix = prefixOf(cluster, "postgres", "public.items");
            String ghost = RowKey.of(prefix, List.of("40"));
            try (CacheStore cache = LiveStores.open("rocksdb", ClusterFile.read(cluster))) {
                for (int id = 1; id <= 12; id++) {
                    put(
                            cache,
                            RowKey.of(prefix, List.of(Integer.toString(id))),
                            "{\"id\":" + id + ",\"v\":\"v" + id + "\"}");
                }
            }
            Printed clean = verify(cluster);
            assertEquals(0, clean.exit(), clean.out());
            assertFalse(clean.out().contains("DIVERGENT"), clean.out());

            try (CacheStore cache = LiveStores.open("rocksdb", ClusterFile.read(cluster))) {
                put(cache, ghost, "{\"id\":40,\"v\":\"deleted at the source\"}");
            }
            Printed found = verify(cluster);
            assertEquals(1, found.exit(), found.out());
            assertTrue(found.out().contains("DIVERGENT public.items " + ghost), found.out());
        }
    }

    /**
     * {@code verify --repair} deletes it: a tombstone at the version of the repair's consistent read
     * (MariaDB's binlog position under the read's lock, as {@code bootstrap run --from} takes it: every
     * change committed after the read lies further on, so a later insert of the key passes it).
     */
    @Test
    void repairDeletesItAtAVersionALaterInsertPasses() throws Exception {
        assumeTrue(MariadbServer.skipReason().isEmpty(), () -> MariadbServer.skipReason()
                .orElse(""));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        try (MariadbServer server = MariadbServer.start(dir.resolve("mariadb"))) {
            String table = MariadbServer.DATABASE + ".items";
            try (Connection c = DriverManager.getConnection(server.jdbcUrl(), MariadbServer.USER, server.password());
                    Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, v varchar(20))");
                s.execute("INSERT INTO " + table + " VALUES (1, 'v1'), (2, 'v2'), (3, 'v3')");
            }
            Path password = Files.writeString(dir.resolve("db.password"), server.password());
            Path cluster = clusterFile(
                    "mysql",
                    "  jdbc-url: " + server.jdbcUrl(),
                    "  user: " + MariadbServer.USER,
                    "  password-file: " + password,
                    "  table: " + table);
            String prefix = prefixOf(cluster, "mysql", table);
            String ghost = RowKey.of(prefix, List.of("40"));
            try (CacheStore cache = LiveStores.open("rocksdb", ClusterFile.read(cluster))) {
                for (int id = 1; id <= 3; id++) {
                    put(
                            cache,
                            RowKey.of(prefix, List.of(Integer.toString(id))),
                            "{\"id\":" + id + ",\"v\":\"v" + id + "\"}");
                }
                put(cache, ghost, "{\"id\":40,\"v\":\"deleted at the source\"}");
            }
            Printed repair = CliRun.of(args(cluster, "mysql", "--repair"));
            assertTrue(
                    repair.out().contains("REPAIR " + table + " " + ghost + ": applied (a tombstone at version"),
                    repair.out());
            assertEquals(0, repair.exit(), repair.out());
            try (CacheStore cache = LiveStores.open("rocksdb", ClusterFile.read(cluster))) {
                CacheRecord held = CacheRecordCodec.decode(
                        cache.get(CacheKey.of(ghost)).orElseThrow().value());
                assertTrue(held.tombstone(), "the ghost is deleted");
                assertTrue(
                        held.version().isNewerThan(Version.of(7, 0)), "above what the cache held: " + held.version());
            }
        }
    }

    /** A cluster directory over a RocksDB cache and the database whose {@code kind:} section is {@code section}. */
    private Path clusterFile(String kind, String... section) throws Exception {
        Path cluster = Files.createDirectories(dir.resolve("cluster"));
        List<String> lines = new java.util.ArrayList<>(List.of(
                "kafka:",
                "  bootstrap-servers: 127.0.0.1:9",
                "store: rocksdb",
                "rocksdb:",
                "  path: " + cluster.resolve("cache"),
                "package-dir: " + cluster.resolve("packages"),
                kind + ":"));
        lines.addAll(List.of(section));
        Files.write(cluster.resolve("cluster.yaml"), lines);
        return cluster;
    }

    /** The key prefix of {@code table}'s rows, as the cluster file's section makes keys. */
    private static String prefixOf(Path cluster, String kind, String table) throws Exception {
        SourceDatabase database = SourceDatabase.fromClusterFile(cluster, kind);
        try (Connection c = database.connect()) {
            return database.resolvedKeys(c).prefixOf(table);
        }
    }

    /** Rounds of 5 rows and 5 cached keys a table, each key allowed 1 s in flight, for 4 s. */
    private static Printed verify(Path cluster) {
        return CliRun.of(args(cluster, "postgres"));
    }

    private static String[] args(Path cluster, String source, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of(
                "verify",
                "--source",
                source,
                "--cluster",
                cluster.toString(),
                "--keys-per-round",
                "5",
                "--every",
                "1s",
                "--in-flight",
                "1s",
                "--duration",
                "4s",
                "--metrics-port",
                "0"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private static void put(CacheStore cache, String key, String row) {
        cache.upsert(
                CacheKey.of(key),
                CacheRecordCodec.encode(CacheRecord.upsert(Version.of(7, 0), 0, row.getBytes(StandardCharsets.UTF_8))),
                Duration.ofHours(1));
    }
}
