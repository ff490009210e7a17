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
package io.nearline.localcluster.databases;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.cache.RowKey;
import io.nearline.common.version.Version;
import io.nearline.jobs.cluster.database.CachedKeysSweep;
import io.nearline.jobs.cluster.database.SourceDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep for deletes a stream missed, on real databases: a cache holding rows of a table with a
 * two-column key (values with the key's separator in them), some of whose rows the table no longer
 * has, beside a second table's keys and a tombstone. Swept a few keys at a time, it finds exactly the
 * live keys whose rows are gone, once each pass, and never a key the caller already compared.
 */
class CachedKeysSweepIT {

    private static final int ROWS = 31;

    @TempDir
    Path dir;

    @Test
    void onPostgresql() throws Exception {
        assumeTrue(PostgresServer.skipReason().isEmpty(), () -> PostgresServer.skipReason()
                .orElse(""));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        try (PostgresServer server = PostgresServer.start(dir.resolve("pg"));
                Connection c = server.connect()) {
            sweepFindsTheDeletedRowsKeys(
                    c,
                    SourceDatabase.of(
                            "postgres", server.jdbcUrl(), PostgresServer.USER, "", "public.links", "public.other"),
                    "public.links",
                    "public.other");
        }
    }

    @Test
    void onMariadb() throws Exception {
        assumeTrue(MariadbServer.skipReason().isEmpty(), () -> MariadbServer.skipReason()
                .orElse(""));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        try (MariadbServer server = MariadbServer.start(dir.resolve("mariadb"));
                Connection c = DriverManager.getConnection(server.jdbcUrl(), MariadbServer.USER, server.password())) {
            String links = MariadbServer.DATABASE + ".links";
            String other = MariadbServer.DATABASE + ".other";
            sweepFindsTheDeletedRowsKeys(
                    c,
                    SourceDatabase.of("mysql", server.jdbcUrl(), MariadbServer.USER, server.password(), links, other),
                    links,
                    other);
        }
    }

    private static void sweepFindsTheDeletedRowsKeys(Connection c, SourceDatabase database, String links, String other)
            throws Exception {
        c.createStatement().execute("CREATE TABLE " + links + " (a INT, b VARCHAR(20), PRIMARY KEY (a, b))");
        c.createStatement().execute("CREATE TABLE " + other + " (id INT PRIMARY KEY)");
        String prefix;
        try (Connection read = database.connect()) {
            prefix = database.resolvedKeys(read).prefixOf(links);
        }
        InMemoryCacheStore cache = new InMemoryCacheStore();
        Set<String> deleted = new TreeSet<>();
        String tombstoned = null;
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + links + " VALUES (?, ?)")) {
            for (int i = 0; i < ROWS; i++) {
                String b = i % 4 == 0 ? "urn:x:" + i : "b-" + i; // values holding the separator
                String key = RowKey.of(prefix, List.of(Integer.toString(i % 3), b));
                cache.upsert(CacheKey.of(key), row(), Duration.ofHours(1));
                if (i % 5 == 2) {
                    deleted.add(key); // cached, but the table never gets it (its delete was lost)
                } else if (i == 9) {
                    tombstoned = key; // gone from the table, and the cache knows
                    cache.upsert(
                            CacheKey.of(key),
                            CacheRecordCodec.encode(CacheRecord.tombstone(Version.of(5, 0), 0)),
                            Duration.ofHours(1));
                } else {
                    insert.setInt(1, i % 3);
                    insert.setString(2, b);
                    insert.executeUpdate();
                }
            }
        }
        String otherKey;
        try (Connection read = database.connect()) {
            otherKey = RowKey.of(database.resolvedKeys(read).prefixOf(other), List.of("1"));
        }
        cache.upsert(CacheKey.of(otherKey), row(), Duration.ofHours(1)); // gone from other too
        String covered = deleted.iterator().next(); // one the caller compared itself

        CachedKeysSweep sweep = new CachedKeysSweep(database, 4);
        Set<String> found = new TreeSet<>();
        int listedAgain = 0;
        for (int call = 0; call < 8; call++) { // 31 keys at 4 a call: one pass, and a second one begun
            CachedKeysSweep.Found f = sweep.next(cache, Map.of(links, Set.of(covered)), Map.of());
            assertEquals(Map.of(), f.notSwept());
            for (String key : f.gone().get(links)) {
                if (!found.add(key)) {
                    listedAgain++;
                }
            }
            found.addAll(f.gone().get(other));
        }
        Set<String> expected = new TreeSet<>(deleted);
        expected.remove(covered);
        expected.add(otherKey);
        assertEquals(expected, found, "the live keys whose rows are gone, and no other");
        assertTrue(!found.contains(tombstoned), "a tombstone is no row to sweep");
        assertEquals(0, listedAgain, "one pass lists each key once");

        // a key found gone before is looked at again, whatever the scan's place: gone still, or back
        insertBack(c, links, covered, prefix);
        String stillGone =
                expected.stream().filter(k -> !k.equals(otherKey)).findFirst().orElseThrow();
        CachedKeysSweep.Found again =
                new CachedKeysSweep(database, 1).next(cache, Map.of(), Map.of(links, List.of(covered, stillGone)));
        assertTrue(again.gone().get(links).contains(stillGone), "gone still: " + again.gone());
        assertTrue(!again.gone().get(links).contains(covered), "back in the table: " + again.gone());
    }

    private static void insertBack(Connection c, String links, String key, String prefix) throws Exception {
        List<String> values = RowKey.values(key, prefix);
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + links + " VALUES (?, ?)")) {
            insert.setInt(1, Integer.parseInt(values.get(0)));
            insert.setString(2, values.get(1));
            insert.executeUpdate();
        }
    }

    private static byte[] row() {
        return CacheRecordCodec.encode(CacheRecord.upsert(Version.of(3, 0), 0, "{}".getBytes(StandardCharsets.UTF_8)));
    }
}
