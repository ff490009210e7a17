package io.nearline.localcluster.databases;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.format.Json;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.events.DebeziumDecoder;
import io.nearline.common.events.Decoded;
import io.nearline.common.testkit.Seeds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real PostgreSQL, written by concurrent transactions that race on primary keys, captured by the
 * real Debezium PostgreSQL connector (embedded engine, pgoutput, JSON with schemas): the capture,
 * decoded by Nearline's Debezium decoder and applied newest-version-wins, must end equal to the table,
 * whatever prefix of it is delivered again and whenever the snapshot's reads arrive. The table itself
 * is the oracle. A negative control orders the same capture by the change's own LSN and must diverge
 * on the keys of the scripted race.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresCaptureIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SNAPSHOT_ROWS = 200;
    private static final int RACES = 5;
    private static final DebeziumDecoder BY_COMMIT = new DebeziumDecoder(List.of("id"), "", DebeziumDecoder.AUTO);

    @TempDir
    static Path dir;

    private PostgresServer server;
    private final List<Captured> capture = Collections.synchronizedList(new ArrayList<>());
    private Map<String, String> table;
    private List<String> racedKeys;

    /** One Kafka record of the capture: key and value as the JsonConverter wrote them (value null: a tombstone). */
    record Captured(String key, String value) {}

    @BeforeAll
    void captureARacingWorkload() throws Exception {
        assumeTrue(PostgresServer.skipReason().isEmpty(), () -> PostgresServer.skipReason()
                .orElse(""));
        // the server runs as the postgres user, which must reach its directory
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        server = PostgresServer.start(dir.resolve("pg"));
        try (Connection c = server.connect();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id int PRIMARY KEY, v text NOT NULL)");
            s.execute("INSERT INTO items SELECT g, 'initial-' || g FROM generate_series(1, " + SNAPSHOT_ROWS + ") g");
        }
        ExecutorService engineThread = Executors.newSingleThreadExecutor();
        try (DebeziumEngine<ChangeEvent<String, String>> engine = DebeziumEngine.create(Json.class)
                .using(connectorProperties())
                .notifying(r -> capture.add(new Captured(r.key(), r.value())))
                .build()) {
            engineThread.execute(engine);
            await("the snapshot's reads")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> count("\"op\":\"r\"") >= SNAPSHOT_ROWS);
            racedKeys = new ArrayList<>();
            for (int i = 0; i < RACES; i++) {
                racedKeys.add(Integer.toString(insertWaitingOnADelete(101 + i * 7)));
            }
            concurrentWriters(new Random(Seeds.seed()));
            try (Connection c = server.connect();
                    Statement s = c.createStatement()) {
                s.execute("INSERT INTO items VALUES (-1, 'end of the workload')");
            }
            await("the whole workload in the capture")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> count("end of the workload") > 0);
        } finally {
            engineThread.shutdown();
            engineThread.awaitTermination(30, TimeUnit.SECONDS);
        }
        table = table();
        Map<String, String> byLsn = apply(capture, new DebeziumDecoder(List.of("id"), "", "source.lsn"));
        long wrongByLsn = table.keySet().stream()
                .filter(k -> !table.get(k).equals(byLsn.get(k)))
                .count();
        System.out.printf(
                "captured %d records (%d snapshot reads) from PostgreSQL; table %d rows; ordered by the change's"
                        + " own LSN, %d keys would differ from the table%n",
                capture.size(), count("\"op\":\"r\""), table.size(), wrongByLsn);
    }

    @AfterAll
    void stopTheServer() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theCaptureInDeliveryOrderEndsEqualToTheTable() {
        assertTrue(count("\"op\":\"d\"") > 100 && count("\"op\":\"u\"") > 100, "a workload that changed rows");
        assertEquals(table, apply(capture, BY_COMMIT));
    }

    /** At-least-once delivery: any prefix again, after the whole, or before the whole (a consumer restarted). */
    @Test
    void aRedeliveredPrefixChangesNothing() {
        long seed = Seeds.seed();
        Random random = new Random(seed);
        for (int i = 0; i < 20; i++) {
            int cut = random.nextInt(capture.size() + 1);
            List<Captured> again = new ArrayList<>(capture);
            if (random.nextBoolean()) {
                again.addAll(capture.subList(0, cut));
            } else {
                again.addAll(0, capture.subList(0, cut));
            }
            assertEquals(table, apply(again, BY_COMMIT), "prefix of " + cut + " redelivered; " + Seeds.replay(seed));
        }
    }

    /** The snapshot's reads delivered late (a slow partition, a replayed snapshot) never regress a key. */
    @Test
    void theSnapshotsReadsNeverBeatAStreamedChange() {
        List<Captured> late = new ArrayList<>(capture);
        late.addAll(capture.stream()
                .filter(r -> r.value() != null && r.value().contains("\"op\":\"r\""))
                .toList());
        assertEquals(table, apply(late, BY_COMMIT));
    }

    /** The scripted race is in the capture: each raced key's insert has a lower change LSN than the delete before it. */
    @Test
    void theRaceIsInTheCaptureAndOrderingByTheChangesLsnGetsItWrong() {
        Map<String, String> byLsn = apply(capture, new DebeziumDecoder(List.of("id"), "", "source.lsn"));
        for (String key : racedKeys) {
            assertEquals("raced-insert-" + key, table.get(key), "the table keeps the insert that waited");
            assertFalse(byLsn.containsKey(key), "by the change's LSN the delete wins for key " + key);
        }
        assertNotEquals(table, byLsn, "the negative control diverges");
    }

    private Properties connectorProperties() {
        Properties p = new Properties();
        p.setProperty("name", "nearline-capture-it");
        p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        p.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
        p.setProperty("offset.flush.interval.ms", "1000");
        p.setProperty("database.hostname", "127.0.0.1");
        p.setProperty("database.port", Integer.toString(server.port()));
        p.setProperty("database.user", PostgresServer.USER);
        p.setProperty("database.password", "");
        p.setProperty("database.dbname", PostgresServer.DATABASE);
        p.setProperty("topic.prefix", "it");
        p.setProperty("plugin.name", "pgoutput");
        p.setProperty("slot.name", "nearline_capture_it");
        p.setProperty("publication.autocreate.mode", "filtered");
        p.setProperty("table.include.list", "public.items");
        p.setProperty("snapshot.mode", "initial");
        return p;
    }

    /**
     * The race a real capture first showed: transaction A updates key k (so its new row version is
     * uncommitted); an INSERT of k writes its row, then waits on the key's unique index for A; A
     * deletes k and commits; the insert goes through and commits last, with a change LSN below A's
     * delete. Returns k.
     */
    private int insertWaitingOnADelete(int k) throws Exception {
        try (Connection a = server.connect();
                Connection watcher = server.connect()) {
            a.setAutoCommit(false);
            try (Statement s = a.createStatement()) {
                s.executeUpdate("UPDATE items SET v = 'updated-before-delete' WHERE id = " + k);
            }
            CompletableFuture<Void> insert = CompletableFuture.runAsync(() -> {
                try (Connection b = server.connect();
                        Statement s = b.createStatement()) {
                    s.executeUpdate("INSERT INTO items VALUES (" + k + ", 'raced-insert-" + k + "')");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            await("the insert waiting on the key")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> waitingOnALock(watcher));
            try (Statement s = a.createStatement()) {
                s.executeUpdate("DELETE FROM items WHERE id = " + k);
            }
            a.commit();
            insert.get(30, TimeUnit.SECONDS);
        }
        return k;
    }

    private static boolean waitingOnALock(Connection watcher) throws SQLException {
        try (Statement s = watcher.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        + " AND query LIKE 'INSERT INTO items%'")) {
            r.next();
            return r.getInt(1) > 0;
        }
    }

    /**
     * Four writers, 150 transactions each, on 60 keys: upserts, updates, deletes, primary-key changes,
     * several statements per transaction, one in six rolled back; deadlocks and key clashes are the
     * database's business (the transaction is rolled back and the writer goes on).
     */
    private void concurrentWriters(Random seeds) throws Exception {
        List<CompletableFuture<Void>> writers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            long seed = seeds.nextLong();
            writers.add(CompletableFuture.runAsync(() -> write(new Random(seed))));
        }
        CompletableFuture.allOf(writers.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
    }

    private void write(Random random) {
        try (Connection c = server.connect()) {
            c.setAutoCommit(false);
            for (int t = 0; t < 150; t++) {
                try (Statement s = c.createStatement()) {
                    int statements = 1 + random.nextInt(3);
                    for (int i = 0; i < statements; i++) {
                        int k = 1 + random.nextInt(60);
                        String v = "'w" + t + "-" + random.nextInt(1000) + "'";
                        switch (random.nextInt(5)) {
                            case 0, 1 ->
                                s.executeUpdate("INSERT INTO items VALUES (" + k + ", " + v
                                        + ") ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v");
                            case 2 -> s.executeUpdate("UPDATE items SET v = " + v + " WHERE id = " + k);
                            case 3 -> s.executeUpdate("DELETE FROM items WHERE id = " + k);
                            default ->
                                s.executeUpdate(
                                        "UPDATE items SET id = " + (1 + random.nextInt(60)) + " WHERE id = " + k);
                        }
                    }
                    if (random.nextInt(6) == 0) {
                        c.rollback();
                    } else {
                        c.commit();
                    }
                } catch (SQLException clash) {
                    c.rollback();
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The table as key to value column. */
    private Map<String, String> table() throws SQLException {
        Map<String, String> out = new TreeMap<>();
        try (Connection c = server.connect();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT id, v FROM items")) {
            while (r.next()) {
                out.put(Integer.toString(r.getInt(1)), r.getString(2));
            }
        }
        return out;
    }

    /** The records decoded and applied newest version first; what is left as key to value column. */
    private static Map<String, String> apply(List<Captured> records, DebeziumDecoder decoder) {
        Map<String, CacheRecord> cache = new TreeMap<>();
        for (Captured r : records) {
            Decoded d = decoder.decode(bytes(r.key()), bytes(r.value()));
            if (d.isSkipped()) {
                continue;
            }
            assertTrue(d.ok(), () -> "refused: " + d.rejection() + " for " + r);
            CacheRecord record = ChangeEvents.cacheRecord(d.event());
            cache.merge(
                    d.event().getKey(),
                    record,
                    (held, next) -> next.version().isNewerThan(held.version()) ? next : held);
        }
        Map<String, String> out = new TreeMap<>();
        cache.forEach((key, record) -> {
            if (!record.tombstone()) {
                out.put(key, column(record.payload()));
            }
        });
        return out;
    }

    private static String column(byte[] row) {
        try {
            JsonNode image = JSON.readTree(new String(row, StandardCharsets.UTF_8));
            return image.path("v").asText();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private long count(String text) {
        synchronized (capture) {
            return capture.stream()
                    .filter(r -> r.value() != null && r.value().contains(text))
                    .count();
        }
    }

    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }
}
