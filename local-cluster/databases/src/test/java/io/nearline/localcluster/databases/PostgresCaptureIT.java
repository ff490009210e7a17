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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.cdcbootstrap.core.DatabaseSnapshot;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.events.DebeziumDecoder;
import io.nearline.common.events.PartialImages;
import io.nearline.jobs.checker.DivergenceChecker;
import io.nearline.jobs.checker.TableCheck;
import io.nearline.jobs.cluster.database.SourceDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL 15 captured by Debezium's PostgreSQL connector ({@code pgoutput}). Beyond the contract, a
 * second negative control: ordered by the change's own LSN, as Nearline once did, the raced keys end
 * deleted while the table has them.
 */
class PostgresCaptureIT extends CaptureContract {

    private PostgresServer server;

    @Override
    Optional<String> skipReason() {
        return PostgresServer.skipReason();
    }

    @Override
    void startServer(Path dir) throws Exception {
        server = PostgresServer.start(dir.resolve("pg"));
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id int PRIMARY KEY, v text NOT NULL)");
            // bodies of ~10 kB of random hex: compressed they are still over TOAST's 2 kB, so stored out of line
            s.execute("CREATE TABLE docs (id int PRIMARY KEY, body text NOT NULL, n int NOT NULL)");
            s.execute("INSERT INTO docs SELECT g, (SELECT string_agg(md5(random()::text || i), '') "
                    + "FROM generate_series(1, 300) i), 0 FROM generate_series(1, " + DOCS + ") g");
        }
    }

    private static final int DOCS = 12;

    /** Updates that leave the toasted body alone (Debezium cannot capture it), and one that changes it. */
    @Override
    void moreWorkload() throws Exception {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE docs SET n = n + 1 WHERE id < " + DOCS);
            s.executeUpdate("UPDATE docs SET body = 'short now', n = n + 1 WHERE id = " + DOCS);
        }
    }

    /**
     * With the default replica identity an update that leaves a toasted column alone carries
     * Debezium's placeholder for it. Through the ordered write the cache completes each such row from
     * the row it holds, and ends equal to the table; stored as captured (the negative control) every
     * one of them differs.
     */
    @Test
    void unchangedToastedColumnsAreCompletedFromTheCachedRow() throws Exception {
        List<Captured> docsCapture = others.stream()
                .filter(r -> r.value() != null && r.value().contains("\"table\":\"docs\""))
                .toList();
        assertTrue(
                docsCapture.stream().anyMatch(r -> r.value().contains(PartialImages.PLACEHOLDER)),
                "the capture holds uncaptured TOAST values");
        SourceDatabase.Rows docs = SourceDatabase.of(
                        "postgres", server.jdbcUrl(), PostgresServer.USER, "", "public.docs")
                .read()
                .tables()
                .get("public.docs");
        Map<CacheKey, ObjectNode> rows = new TreeMap<>();
        docs.byKey().forEach((k, row) -> rows.put(CacheKey.of(k), row));

        DivergenceChecker.Report written =
                TableCheck.check(rows, docs.compared(), List.of(), ordered(docsCapture, BY_COMMIT));
        assertTrue(written.converged(), written.summary());

        Map<CacheKey, CacheRecord> asCaptured = cache(docsCapture, BY_COMMIT);
        DivergenceChecker.Report stored =
                TableCheck.check(rows, docs.compared(), List.of(), k -> Optional.ofNullable(asCaptured.get(k)));
        assertEquals(DOCS - 1, stored.count(DivergenceChecker.Kind.DIFFERENT), stored.summary());
    }

    @Override
    DatabaseSnapshot.Source source() {
        return DatabaseSnapshot.Source.POSTGRES;
    }

    @Override
    long logPositionNow(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT (pg_current_wal_lsn() - '0/0')::bigint")) {
            r.next();
            return r.getLong(1);
        }
    }

    @Override
    List<String> typedTable() {
        return List.of(
                "CREATE TABLE typed (id bigint PRIMARY KEY, name varchar(200), qty int, small smallint, "
                        + "price numeric(12,2), free numeric, ratio real, score double precision, flag boolean, "
                        + "note text, born date, updated_at timestamp(6), at_millis timestamp(3), zoned timestamptz)",
                "INSERT INTO typed VALUES (1, 'one', 3, 7, 12.50, 3.14159, 0.1, 2.5e-3, true, 'first', '1990-01-31', "
                        + "'2026-11-26 18:42:34.123456', '2026-11-26 18:42:34.125', '2026-11-26 18:42:34.5+02')",
                "INSERT INTO typed VALUES (2, 'two', -1, 0, 0.00, 100, 1.5, -1e10, false, '', '2030-12-31', "
                        + "'1969-12-31 23:59:59.999999', '2000-01-01 00:00:00', '2026-01-01 00:00:00+00')",
                "INSERT INTO typed (id) VALUES (3)");
    }

    @Override
    void close() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Override
    SourceDatabase sourceTable() {
        return SourceDatabase.of("postgres", server.jdbcUrl(), PostgresServer.USER, "", "public.items");
    }

    @Override
    Connection connect() throws SQLException {
        return server.connect();
    }

    @Override
    String upsert(int k, String quotedValue) {
        return "INSERT INTO items VALUES (" + k + ", " + quotedValue
                + ") ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v";
    }

    @Override
    boolean waitingOnALock(Connection watcher) throws SQLException {
        try (Statement s = watcher.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        + " AND query LIKE 'INSERT INTO items%'")) {
            r.next();
            return r.getInt(1) > 0;
        }
    }

    @Override
    Properties connectorProperties() {
        Properties p = engineProperties(
                "io.debezium.connector.postgresql.PostgresConnector", server.port(), PostgresServer.USER, "");
        p.setProperty("database.dbname", PostgresServer.DATABASE);
        p.setProperty("plugin.name", "pgoutput");
        p.setProperty("slot.name", "nearline_capture_it");
        p.setProperty("publication.autocreate.mode", "filtered");
        p.setProperty("table.include.list", "public.items,public.docs,public.typed,public.tags,public.links");
        return p;
    }

    /**
     * The ranking the incremental snapshot's reads had before issue 66, as an initial snapshot's (below
     * every streamed change, since they carry no lsn): after the lost stretch they fill only keys the
     * cache lacks, and rows the stretch changed stay wrong.
     */
    @Test
    void readsRankedAsTheInitialSnapshotsLeaveRowsWrong() throws Exception {
        List<Captured> asInitial = withoutTheLostStretch().stream()
                .map(r -> isIncrementalRead(r)
                        ? new Captured(
                                r.key(), r.value().replace("\"snapshot\":\"incremental\"", "\"snapshot\":\"true\""))
                        : r)
                .toList();
        assertFalse(
                divergences(asInitial)
                        .getOrDefault(DivergenceChecker.Kind.DIFFERENT, List.of())
                        .isEmpty(),
                "rows the lost stretch changed stay wrong");
    }

    /**
     * The race is in the capture: by the change's own LSN the delete wins on every raced key. (The
     * incremental snapshot's reads have no lsn of their own, and are left out.)
     */
    @Test
    void orderingByTheChangesOwnLsnGetsTheRaceWrong() {
        List<Captured> withLsn =
                capture.stream().filter(r -> !isIncrementalRead(r)).toList();
        Map<String, String> byLsn = apply(withLsn, new DebeziumDecoder(List.of("id"), "", "source.lsn"));
        for (String key : racedKeys) {
            assertFalse(byLsn.containsKey(key), "by the change's LSN the delete wins for key " + key);
        }
        assertNotEquals(table, byLsn, "the negative control diverges");
    }
}
