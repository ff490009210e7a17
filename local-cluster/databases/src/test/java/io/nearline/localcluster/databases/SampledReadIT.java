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

import io.nearline.jobs.cluster.database.SampledRead;
import io.nearline.jobs.cluster.database.SourceDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verifier's read a slice at a time, on real servers, over a table with a two-column key: each
 * round reads at most its share in key order, a pass reads every row once, the next pass starts at the
 * first row again, and keys asked for again come back (or are named gone).
 */
class SampledReadIT {

    private static final int ROWS = 23;

    @TempDir
    Path dir;

    @Test
    void onPostgresql() throws Exception {
        assumeTrue(PostgresServer.skipReason().isEmpty(), () -> PostgresServer.skipReason()
                .orElse(""));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        try (PostgresServer server = PostgresServer.start(dir.resolve("pg"));
                Connection c = server.connect()) {
            fill(c, "public.links");
            slicesCoverTheTableOnceAPass(
                    SourceDatabase.of("postgres", server.jdbcUrl(), PostgresServer.USER, "", "public.links"),
                    c,
                    "public.links");
        }
    }

    @Test
    void onMariadb() throws Exception {
        assumeTrue(MariadbServer.skipReason().isEmpty(), () -> MariadbServer.skipReason()
                .orElse(""));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        try (MariadbServer server = MariadbServer.start(dir.resolve("mariadb"));
                Connection c = DriverManager.getConnection(server.jdbcUrl(), MariadbServer.USER, server.password())) {
            String table = MariadbServer.DATABASE + ".links";
            fill(c, table);
            slicesCoverTheTableOnceAPass(
                    SourceDatabase.of("mysql", server.jdbcUrl(), MariadbServer.USER, server.password(), table),
                    c,
                    table);
        }
    }

    /** A key of an int and a text column, the text ordered apart from its number (b-10 before b-2). */
    private static void fill(Connection c, String table) throws Exception {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (a INT, b VARCHAR(20), qty INT, PRIMARY KEY (a, b))");
            for (int i = 0; i < ROWS; i++) {
                s.execute("INSERT INTO " + table + " VALUES (" + (i % 3) + ", 'b-" + i + "', " + i + ")");
            }
        }
    }

    private static void slicesCoverTheTableOnceAPass(SourceDatabase database, Connection c, String table)
            throws Exception {
        SampledRead slices = new SampledRead(database, 5);
        List<String> pass = new ArrayList<>();
        Map<String, List<Object>> valuesOf = new LinkedHashMap<>();
        for (int round = 0; round < 5; round++) { // 5 + 5 + 5 + 5 + 3
            SampledRead.Round r = slices.next(Map.of());
            Set<String> keys = r.read().tables().get(table).byKey().keySet();
            assertEquals(round < 4 ? 5 : 3, keys.size(), "round " + round + ": " + keys);
            pass.addAll(keys);
            valuesOf.putAll(r.keyValues());
        }
        assertEquals(ROWS, pass.size());
        assertEquals(ROWS, new HashSet<>(pass).size(), "every row once a pass: " + pass);
        assertEquals(
                new HashSet<>(database.read().tables().get(table).byKey().keySet()),
                new HashSet<>(pass),
                "the same keys as a whole read");

        // the next pass starts at the first row again; two keys asked for again, one of them deleted meanwhile
        String kept = pass.get(7);
        String deleted = pass.get(12);
        List<Object> deletedKey = valuesOf.get(deleted);
        try (Statement s = c.createStatement()) {
            s.execute("DELETE FROM " + table + " WHERE a = " + deletedKey.get(0) + " AND b = '" + deletedKey.get(1)
                    + "'");
        }
        Map<String, List<Object>> again = new LinkedHashMap<>();
        again.put(kept, valuesOf.get(kept));
        again.put(deleted, deletedKey);
        SampledRead.Round next = slices.next(Map.of(table, again));
        Set<String> keys = next.read().tables().get(table).byKey().keySet();
        assertTrue(keys.containsAll(pass.subList(0, 5)), "the first slice again: " + keys);
        assertTrue(keys.contains(kept), "a key asked for again is read: " + keys);
        assertEquals(List.of(deleted), next.gone().get(table));
    }
}
