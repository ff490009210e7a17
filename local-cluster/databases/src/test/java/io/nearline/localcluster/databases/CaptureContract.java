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

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.format.Json;
import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriteOutcome;
import io.nearline.cacheupdater.core.WriteResult;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.cdcbootstrap.core.DatabaseSnapshot;
import io.nearline.cdcbootstrap.core.SnapshotRows;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.events.DebeziumDecoder;
import io.nearline.common.events.DebeziumKeys;
import io.nearline.common.events.DebeziumVersion;
import io.nearline.common.events.Decoded;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.schema.TrustedAvroClasses;
import io.nearline.common.testkit.Seeds;
import io.nearline.common.version.Version;
import io.nearline.jobs.checker.CacheView;
import io.nearline.jobs.checker.DivergenceChecker;
import io.nearline.jobs.checker.TableCheck;
import io.nearline.jobs.cluster.database.SourceDatabase;
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
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real database, written by concurrent transactions that race on primary keys, captured by the real
 * Debezium connector (embedded engine, JSON with schemas): the capture, decoded by Nearline's Debezium
 * decoder and applied newest-version-wins, must end equal to the table, whatever prefix of it is
 * delivered again and whenever the snapshot's reads arrive. The table itself is the oracle. A negative
 * control applies the same records by arrival (a blind upsert) with a prefix delivered again, and must
 * diverge. Each database's test supplies the server, its SQL and the connector's settings.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CaptureContract {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SNAPSHOT_ROWS = 200;
    private static final int RACES = 5;
    static final DebeziumDecoder BY_COMMIT = new DebeziumDecoder(List.of("id"), "", DebeziumDecoder.AUTO);

    @TempDir
    static Path dir;

    /** Records of the tables a database's own test adds beside items. */
    final List<Captured> others = Collections.synchronizedList(new ArrayList<>());

    final List<Captured> capture = Collections.synchronizedList(new ArrayList<>());
    /**
     * A connector's whole stream, in delivery order: items, tags (whose ids are items' numbers too) and
     * links (keyed by two columns), as one topic would carry them.
     */
    final List<Captured> stream = Collections.synchronizedList(new ArrayList<>());
    /** The tables of {@link #stream}, unqualified. */
    static final List<String> STREAM_TABLES = List.of("items", "tags", "links");

    Map<String, String> table;
    List<String> racedKeys;

    /** Transactions the racing writers have finished (committed or rolled back). */
    private final AtomicInteger transactionsDone = new AtomicInteger();
    /** The bootstrap's snapshots: of items while the writers race, and after them; of typed. */
    List<ChangeEvent> racingSnapshot;

    List<ChangeEvent> quietSnapshot;
    List<ChangeEvent> typedSnapshot;
    /** Debezium's signalling table, through which the re-sync asks for an incremental snapshot. */
    static final String SIGNAL_TABLE = "debezium_signal";

    /** Where {@link #stream} stood when the re-sync's stretch began to be lost, and when the signal came. */
    int lostFrom;

    int signalAt = -1;
    /** The connector's notifications (its sink channel): the incremental snapshot's progress. */
    final List<String> notifications = Collections.synchronizedList(new ArrayList<>());

    /** A key changed after the quiet snapshot, and the log position after that change. */
    static final String LATE_KEY = "7";

    long positionAfterTheLateChange;

    /** Starts the database in {@code dir} (reachable by the server's user) with an empty table items(id, v); {@link #close} stops it. */
    abstract void startServer(Path dir) throws Exception;

    /** Stops the database, if it was started. */
    abstract void close() throws Exception;

    abstract Connection connect() throws SQLException;

    /** The connector's own settings, beside {@link #engineProperties}. */
    abstract Properties connectorProperties();

    /** What every capture shares: offsets in memory, the server on loopback, the topic prefix. */
    static Properties engineProperties(String connectorClass, int port, String user, String password) {
        Properties p = new Properties();
        p.setProperty("name", "nearline-capture-it");
        p.setProperty("connector.class", connectorClass);
        p.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
        p.setProperty("offset.flush.interval.ms", "1000");
        p.setProperty("database.hostname", "127.0.0.1");
        p.setProperty("database.port", Integer.toString(port));
        p.setProperty("database.user", user);
        p.setProperty("database.password", password);
        p.setProperty("topic.prefix", "it");
        p.setProperty("snapshot.mode", "initial");
        return p;
    }

    /** An INSERT of (k, v) that updates v where k exists. */
    abstract String upsert(int k, String quotedValue);

    /** Whether a session is waiting for a row lock. */
    abstract boolean waitingOnALock(Connection watcher) throws SQLException;

    /** What a database's own test writes after the racing workload, on tables of its own (captured into {@link #others}). */
    void moreWorkload() throws Exception {}

    /** Why the database cannot run here, or empty. */
    abstract Optional<String> skipReason();

    /** The database as the bootstrap's snapshot names it. */
    abstract DatabaseSnapshot.Source source();

    /** The database's change log position now, as a version: what a naive snapshot would be versioned at. */
    abstract long logPositionNow(Connection c) throws SQLException;

    /**
     * Statements that create and fill the table {@code typed} (id, and a column of each type the
     * bootstrap writes), run before the connector starts; the connector must capture it.
     */
    abstract List<String> typedTable();

    /** One Kafka record of the capture: key and value as the JsonConverter wrote them (value null: a tombstone). */
    record Captured(String key, String value) {}

    @BeforeAll
    void captureARacingWorkload() throws Exception {
        assumeTrue(skipReason().isEmpty(), () -> skipReason().orElse(""));
        // the server runs as its package's user, which must reach its directory
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        startServer(dir);
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            for (int k = 1; k <= SNAPSHOT_ROWS; k++) {
                s.addBatch("INSERT INTO items VALUES (" + k + ", 'initial-" + k + "')");
            }
            s.executeBatch();
            for (String sql : typedTable()) {
                s.execute(sql);
            }
            s.execute("CREATE TABLE tags (id int PRIMARY KEY, label varchar(40))");
            for (int k = 1; k <= 10; k++) {
                s.addBatch("INSERT INTO tags VALUES (" + k + ", 'tag-" + k + "')");
            }
            s.execute("CREATE TABLE links (a int NOT NULL, b int NOT NULL, w int, PRIMARY KEY (a, b))");
            for (int a = 1; a <= 5; a++) {
                for (int b = 1; b <= 4; b++) {
                    s.addBatch("INSERT INTO links VALUES (" + a + ", " + b + ", " + (a * b) + ")");
                }
            }
            s.executeBatch();
            s.execute("CREATE TABLE " + SIGNAL_TABLE
                    + " (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL, data varchar(2048))");
        }
        ExecutorService engineThread = Executors.newSingleThreadExecutor();
        try (DebeziumEngine<io.debezium.engine.ChangeEvent<String, String>> engine = DebeziumEngine.create(Json.class)
                .using(withSignalling(connectorProperties()))
                .notifying(r -> {
                    if (r.destination().equals(NOTIFICATIONS)) {
                        notifications.add(r.value());
                        return;
                    }
                    if (r.destination().endsWith("." + SIGNAL_TABLE)) {
                        if (signalAt < 0 && r.value() != null && r.value().contains(RESYNC_SIGNAL)) {
                            signalAt = stream.size();
                        }
                        return;
                    }
                    if (STREAM_TABLES.stream().anyMatch(t -> r.destination().endsWith("." + t))) {
                        stream.add(new Captured(r.key(), r.value()));
                    }
                    if (r.destination().endsWith(".items")) {
                        capture.add(new Captured(r.key(), r.value()));
                    } else if (!r.destination().equals("it")) { // not the connector's schema-change topic
                        others.add(new Captured(r.key(), r.value()));
                    }
                })
                .build()) {
            engineThread.execute(engine);
            await("the snapshot's reads")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> count("\"op\":\"r\"") >= SNAPSHOT_ROWS);
            racedKeys = new ArrayList<>();
            for (int i = 0; i < RACES; i++) {
                racedKeys.add(Integer.toString(insertWaitingOnADelete(101 + i * 7)));
            }
            CompletableFuture<List<ChangeEvent>> racing = CompletableFuture.supplyAsync(() -> {
                await("a quarter of the racing transactions")
                        .atMost(Duration.ofMinutes(2))
                        .until(() -> transactionsDone.get() >= 150);
                return bootstrapSnapshot("items");
            });
            concurrentWriters(new Random(Seeds.seed()));
            racingSnapshot = racing.get(2, TimeUnit.MINUTES);
            moreWorkload();
            linkWorkload();
            resyncAfterALostStretch();
            quietSnapshotThenALateChange();
            try (Connection c = connect();
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
        System.out.printf(
                "%s: captured %d records (%d snapshot reads, %d updates, %d deletes); the table has %d rows%n",
                getClass().getSimpleName(),
                capture.size(),
                count("\"op\":\"r\""),
                count("\"op\":\"u\""),
                count("\"op\":\"d\""),
                table.size());
        String keepIn = System.getProperty(KEEP_CAPTURE);
        if (keepIn != null) {
            keep(Path.of(keepIn));
        }
    }

    /** Where, when set, the capture and the table are written as fixtures for the conformance suite. */
    static final String KEEP_CAPTURE = "nearline.keepCapture";

    /**
     * Writes {@code <db>.jsonl} (the capture as {@code {"key","value"}} lines, the converter's schema
     * wrapper taken off to keep the file small) and {@code <db>.table.jsonl} (the table's rows as
     * {@code SourceDatabase} reads them, by cache key) into {@code dir}.
     */
    private void keep(Path dir) throws Exception {
        String name = getClass().getSimpleName().replace("CaptureIT", "").toLowerCase(java.util.Locale.ROOT);
        List<String> records = new ArrayList<>();
        for (Captured r : stream) {
            com.fasterxml.jackson.databind.node.ObjectNode line = JSON.createObjectNode();
            line.set("key", DebeziumDecoder.unwrap(r.key() == null ? null : JSON.readTree(r.key())));
            line.set("value", r.value() == null ? null : DebeziumDecoder.unwrap(JSON.readTree(r.value())));
            records.add(line.toString());
        }
        Files.createDirectories(dir);
        Files.write(dir.resolve("captured-" + name + ".jsonl"), records);
        List<String> rows = new ArrayList<>();
        streamTables().read().tables().forEach((table, read) -> read.byKey().forEach((key, row) -> {
            com.fasterxml.jackson.databind.node.ObjectNode line = JSON.createObjectNode();
            line.put("key", key);
            line.set("row", row);
            rows.add(line.toString());
        }));
        Files.write(dir.resolve("captured-" + name + ".table.jsonl"), rows);
    }

    /** The bootstrap's snapshot of {@code tableName}, read back from the file it writes. */
    private List<ChangeEvent> bootstrapSnapshot(String tableName) {
        try (Connection c = connect()) {
            Path file = Files.createTempFile(dir, tableName + "-snapshot", ".jsonl");
            new DatabaseSnapshot(
                            c,
                            source(),
                            new DebeziumKeys(
                                    "", List.of("id"), Map.of(qualified(tableName), DebeziumKeys.Table.DEFAULT)),
                            Duration.ofMinutes(1))
                    .write(this::watermarkFromTheCapture, file);
            return SnapshotRows.read(file).rows();
        } catch (Exception e) {
            throw new IllegalStateException("bootstrap snapshot of " + tableName, e);
        }
    }

    /** The PostgreSQL watermark as the connector streamed it (its messages are among the other records). */
    private DebeziumVersion.Position watermarkFromTheCapture(String snapshotId, Duration limit) {
        return await("the watermark " + snapshotId + " streamed")
                .atMost(limit)
                .until(
                        () -> {
                            synchronized (others) {
                                for (Captured r : others) {
                                    DebeziumVersion.Position p =
                                            DatabaseSnapshot.watermark(bytes(r.value()), snapshotId);
                                    if (p != null) {
                                        return p;
                                    }
                                }
                            }
                            return null;
                        },
                        p -> p != null);
    }

    /**
     * With the writers done: a change to every row of typed, snapshots of items
     * and typed, then a change to {@link #LATE_KEY} after them and the log position after it.
     */
    /**
     * Changes of the two tables beside items: tags' rows of the same ids as items' changed and deleted;
     * links' two-column key updated, deleted, inserted, and one key column changed.
     */
    private void linkWorkload() throws Exception {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE tags SET label = 'relabelled' WHERE id <= 3");
            s.executeUpdate("DELETE FROM tags WHERE id = 4");
            s.executeUpdate("INSERT INTO tags VALUES (11, 'tag-11')");
            s.executeUpdate("UPDATE links SET w = w + 100 WHERE a = 2");
            s.executeUpdate("DELETE FROM links WHERE a = 3 AND b > 2");
            s.executeUpdate("INSERT INTO links VALUES (6, 1, 61)");
            s.executeUpdate("UPDATE links SET b = 9 WHERE a = 4 AND b = 1");
            s.executeUpdate("DELETE FROM links WHERE a = 5 AND b = 4");
            s.executeUpdate("INSERT INTO links VALUES (5, 4, 54)");
        }
    }

    static final String NOTIFICATIONS = "it.notifications";
    private static final String RESYNC_SIGNAL = "resync-after-a-lost-stretch";

    /**
     * The settings that let the connector take signals from {@link #SIGNAL_TABLE} (which it must capture)
     * and send its notifications to {@link #NOTIFICATIONS}; small chunks, so that the re-sync's windows
     * interleave with the writers'.
     */
    private Properties withSignalling(Properties p) {
        p.setProperty("table.include.list", p.getProperty("table.include.list") + "," + qualified(SIGNAL_TABLE));
        p.setProperty("signal.data.collection", qualified(SIGNAL_TABLE));
        p.setProperty("signal.enabled.channels", "source");
        p.setProperty("incremental.snapshot.chunk.size", "25");
        p.setProperty("notification.enabled.channels", "sink");
        p.setProperty("notification.sink.topic.name", NOTIFICATIONS);
        return p;
    }

    /**
     * Writers change items, tags and links in a stretch of the stream that the test will drop, as a lost
     * segment would; then the signal asks for an incremental snapshot of the three tables, while writers
     * race on items through its windows, and the connector says it has completed.
     */
    private void resyncAfterALostStretch() throws Exception {
        lostFrom = stream.size();
        concurrentWriters(new Random(Seeds.seed() + 1), 2, 60);
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE tags SET label = concat('lost-', id) WHERE id > 7");
            s.executeUpdate("DELETE FROM tags WHERE id = 5");
            s.executeUpdate("UPDATE links SET w = w + 1000 WHERE a = 1");
            s.executeUpdate("DELETE FROM links WHERE a = 2 AND b = 2");
            String tables = STREAM_TABLES.stream()
                    .map(t -> "\"" + qualified(t) + "\"")
                    .collect(java.util.stream.Collectors.joining(","));
            s.executeUpdate("INSERT INTO " + SIGNAL_TABLE + " VALUES ('" + RESYNC_SIGNAL + "', 'execute-snapshot', "
                    + "'{\"data-collections\": [" + tables + "], \"type\": \"incremental\"}')");
        }
        concurrentWriters(new Random(Seeds.seed() + 2), 2, 60);
        await("the incremental snapshot's completion")
                .atMost(Duration.ofMinutes(2))
                .until(() -> notifications.stream()
                        .anyMatch(n -> n.contains("Incremental Snapshot") && n.contains("COMPLETED")));
        assertTrue(signalAt > lostFrom, "the signal came after the stretch to lose");
        notifications.forEach(n -> System.out.println("NOTIFICATION " + n));
    }

    private void quietSnapshotThenALateChange() throws Exception {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            // every row streamed: MySQL's connector writes some values differently in its snapshot reads
            s.executeUpdate("UPDATE typed SET qty = coalesce(qty, 0) + 1, note = 'streamed'");
            s.executeUpdate(upsert(Integer.parseInt(LATE_KEY), "'before-the-snapshot'")); // a row for it to hold
        }
        quietSnapshot = bootstrapSnapshot("items");
        typedSnapshot = bootstrapSnapshot("typed");
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            s.executeUpdate(upsert(Integer.parseInt(LATE_KEY), "'after-the-snapshot'"));
            positionAfterTheLateChange = logPositionNow(c);
        }
    }

    @AfterAll
    void stopTheServer() throws Exception {
        close();
    }

    /**
     * Property 2 on a real capture: the bootstrap's snapshot, taken while writers race and again after
     * them, applied at any point of the stream (before it, inside it, after it), ends equal to the table.
     */
    @Test
    void aBootstrapSnapshotAppliedAnywhereInTheStreamEndsEqualToTheTable() {
        List<ChangeEvent> stream = decoded(capture);
        assertTrue(racingSnapshot.size() > 100 && quietSnapshot.size() > 100, "snapshots with rows");
        long seed = Seeds.seed();
        Random random = new Random(seed);
        for (List<ChangeEvent> snapshot : List.of(racingSnapshot, quietSnapshot)) {
            for (int i = 0; i < 20; i++) {
                int at = i == 0 ? 0 : i == 1 ? stream.size() : random.nextInt(stream.size() + 1);
                List<ChangeEvent> events = new ArrayList<>(stream);
                events.addAll(at, snapshot);
                assertEquals(table, applyEvents(events), "snapshot applied at " + at + "; " + Seeds.replay(seed));
            }
        }
    }

    /**
     * The negative control: the same rows versioned at the log's position when the bootstrap ended (after
     * a change its reads did not see) beat that change and regress the key.
     */
    @Test
    void aSnapshotVersionedWhereTheLogStoodAfterItsReadsRegressesALaterChange() {
        List<ChangeEvent> events = decoded(capture);
        events.addAll(quietSnapshot);
        assertEquals(table, applyEvents(events), "versioned at its point");
        assertEquals("after-the-snapshot", table.get(LATE_KEY));

        TrustedAvroClasses.ensure();
        List<ChangeEvent> naive = decoded(capture);
        for (ChangeEvent row : quietSnapshot) {
            ChangeEvent late = ChangeEvent.newBuilder(row)
                    .setScn(positionAfterTheLateChange)
                    .build();
            naive.add(late);
        }
        assertNotEquals(
                "after-the-snapshot",
                applyEvents(naive).get(LATE_KEY),
                () -> "the naive version " + positionAfterTheLateChange + " regresses; the late change: "
                        + decoded(capture).stream()
                                .filter(e -> e.getKey().equals(LATE_KEY))
                                .map(e -> e.getScn() + "/" + e.getSeq())
                                .toList());
    }

    /** Every row the bootstrap writes is, byte for byte, the row the connector's capture leaves in the cache. */
    @Test
    void theBootstrapWritesEachRowAsTheConnectorCapturedIt() {
        List<Captured> typed;
        synchronized (others) {
            typed = others.stream()
                    .filter(r -> r.value() != null && r.value().contains("\"table\":\"typed\""))
                    .toList();
        }
        assertTrue(typed.stream().anyMatch(r -> r.value().contains("\"op\":\"u\"")), "a streamed change of typed");
        Map<CacheKey, CacheRecord> captured = cache(typed, BY_COMMIT);
        assertEquals(captured.size(), typedSnapshot.size());
        for (ChangeEvent row : typedSnapshot) {
            CacheRecord held = captured.get(CacheKey.of(row.getKey()));
            assertEquals(
                    new String(held.payload(), StandardCharsets.UTF_8),
                    new String(ChangeEvents.cacheRecord(row).payload(), StandardCharsets.UTF_8),
                    "row " + row.getKey());
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

    /** Each raced key holds the insert that waited for the delete: it committed last. */
    @Test
    void theRacedInsertsCommittedLastAndWin() {
        Map<String, String> cache = apply(capture, BY_COMMIT);
        for (String key : racedKeys) {
            assertEquals("raced-insert-" + key, table.get(key), "the table keeps the insert that waited");
            assertEquals(table.get(key), cache.get(key), "key " + key);
        }
    }

    /**
     * The database as the oracle, read by {@code check --source}'s own parts ({@link SourceDatabase},
     * {@link TableCheck}): the cache the capture leaves matches every row of the table, every column
     * compared, and every key the capture deleted is gone; the blind cache of the negative control does not.
     */
    @Test
    void theTableCheckAgreesWithTheCacheAndCatchesTheBlindOne() throws Exception {
        SourceDatabase.Rows rows = rowsOf(sourceTable());
        assertEquals(List.of("id", "v"), List.copyOf(rows.compared()));
        Map<CacheKey, ObjectNode> byKey = new TreeMap<>();
        rows.byKey().forEach((k, row) -> byKey.put(CacheKey.of(k), row));
        Map<CacheKey, CacheRecord> ordered = cache(capture, BY_COMMIT);
        DivergenceChecker.Report good =
                TableCheck.check(byKey, rows.compared(), ordered.keySet(), k -> Optional.ofNullable(ordered.get(k)));
        assertTrue(good.converged(), good.summary());
        assertTrue(good.keysChecked() > table.size(), "deleted keys checked too");

        List<Captured> again = new ArrayList<>(capture);
        again.addAll(capture.subList(0, capture.size() / 2));
        Map<CacheKey, CacheRecord> blind = new TreeMap<>();
        for (Captured r : again) {
            Decoded d = BY_COMMIT.decode(bytes(r.key()), bytes(r.value()));
            if (d.ok()) {
                blind.put(CacheKey.of(d.event().getKey()), ChangeEvents.cacheRecord(d.event()));
            }
        }
        DivergenceChecker.Report bad =
                TableCheck.check(byKey, rows.compared(), blind.keySet(), k -> Optional.ofNullable(blind.get(k)));
        assertFalse(bad.converged(), "the negative control diverges");
    }

    /** The table as {@code check --source} reads it from a cluster file's section. */
    abstract SourceDatabase sourceTable();

    /** The tables of {@link #stream}, as {@code check --source} reads them: keyed by primary key and table. */
    SourceDatabase streamTables() {
        SourceDatabase items = sourceTable();
        return SourceDatabase.of(
                items.kind(),
                items.jdbcUrl(),
                items.user(),
                items.password(),
                STREAM_TABLES.stream().map(this::qualified).toArray(String[]::new));
    }

    /** A decoder of {@link #stream} taking its tables, keys naming them, as a job with cdc.debezium.tables does. */
    DebeziumDecoder streamDecoder() {
        Map<String, DebeziumKeys.Table> listed = new java.util.LinkedHashMap<>();
        STREAM_TABLES.forEach(t -> listed.put(qualified(t), DebeziumKeys.Table.DEFAULT));
        return new DebeziumDecoder(new DebeziumKeys("", List.of(), listed), DebeziumDecoder.AUTO);
    }

    /**
     * A connector's whole stream: three tables in one topic, two of them sharing ids, one keyed by two
     * columns, applied through the ordered write with the tables listed, ends equal to every table, as
     * {@code check --source} reads them (keyed apart from the decoder, by the catalog's primary keys).
     * The negative control: one key rule for the whole stream, as before tables, leaves rows of the
     * two tables sharing ids on each other's keys and the two-column table unkeyed, and the check fails.
     */
    @Test
    void aConnectorsWholeStreamEndsEqualToEveryTable() throws Exception {
        SourceDatabase.Read tables = streamTables().read();
        TableCheck.Tables good = TableCheck.check(tableChecks(tables), ordered(stream, streamDecoder()));
        assertTrue(good.total().converged(), good.perTable());
        for (String t : STREAM_TABLES) {
            assertTrue(good.byTable().get(qualified(t)).keysChecked() > 0, "rows of " + t + " checked");
        }
        assertEquals(List.of("a", "b"), tables.keys().keyFieldsOf(qualified("links")), "the catalog's two columns");

        TableCheck.Tables oneRule = TableCheck.check(tableChecks(tables), ordered(stream, BY_COMMIT));
        assertFalse(oneRule.total().converged(), "the negative control diverges");
    }

    /**
     * Issue 66 on a real capture: a stretch of the stream before the signal lost (items raced by writers,
     * tags and links changed and deleted in it), the incremental snapshot the signal asked for, with
     * writers racing through its windows, repairs every row of the three tables. What it cannot repair is
     * a row deleted inside the lost stretch: such keys stay cached, and only those. Controls: without the
     * snapshot's reads the same stream leaves rows wrong, so the loss was real and the reads repaired it.
     */
    @Test
    void anIncrementalSnapshotRepairsWhatALostStretchLeftWrong() throws Exception {
        List<Captured> kept = withoutTheLostStretch();
        Map<DivergenceChecker.Kind, List<CacheKey>> repaired = divergences(kept);
        System.out.printf(
                "%s: %d records lost before the signal; after the incremental snapshot %s%n",
                getClass().getSimpleName(), signalAt - lostFrom, counts(repaired));
        assertEquals(List.of(), repaired.getOrDefault(DivergenceChecker.Kind.MISSING, List.of()), "rows missing");
        assertEquals(List.of(), repaired.getOrDefault(DivergenceChecker.Kind.DIFFERENT, List.of()), "rows wrong");
        Set<CacheKey> deletedInTheLoss = deletedIn(stream.subList(lostFrom, signalAt));
        for (CacheKey k : repaired.getOrDefault(DivergenceChecker.Kind.RESURRECTED, List.of())) {
            assertTrue(deletedInTheLoss.contains(k), k + " is cached, deleted, but not inside the lost stretch");
        }

        List<Captured> noReads =
                kept.stream().filter(r -> !isIncrementalRead(r)).toList();
        assertTrue(noReads.size() < kept.size(), "the capture holds the incremental snapshot's reads");
        Map<DivergenceChecker.Kind, List<CacheKey>> unrepaired = divergences(noReads);
        assertFalse(
                unrepaired
                                .getOrDefault(DivergenceChecker.Kind.MISSING, List.of())
                                .isEmpty()
                        && unrepaired
                                .getOrDefault(DivergenceChecker.Kind.DIFFERENT, List.of())
                                .isEmpty(),
                "the control: without the reads, the lost stretch leaves rows wrong: " + counts(unrepaired));
    }

    /** {@link #stream} with the stretch before the signal left out. */
    List<Captured> withoutTheLostStretch() {
        List<Captured> kept = new ArrayList<>(stream.subList(0, lostFrom));
        kept.addAll(stream.subList(signalAt, stream.size()));
        return kept;
    }

    /**
     * The ranking on the real capture: each incremental read's version is above every streamed change
     * delivered before it and below every one delivered after it (the stream is in commit order).
     */
    @Test
    void eachIncrementalReadRanksBetweenTheChangesAroundIt() {
        DebeziumDecoder decoder = streamDecoder();
        Version newestChange = Version.NONE;
        Version newestRead = Version.NONE;
        int reads = 0;
        for (Captured r : stream) {
            Decoded d = decoder.decode(bytes(r.key()), bytes(r.value()));
            if (!d.ok() || d.event().getScn() == 0) {
                continue; // the initial snapshot's reads rank below everything
            }
            Version v = ChangeEvents.cacheRecord(d.event()).version();
            if (isIncrementalRead(r)) {
                assertTrue(v.isNewerThan(newestChange), v + " must pass every change before it, " + newestChange);
                newestRead = v.isNewerThan(newestRead) ? v : newestRead;
                reads++;
            } else {
                assertTrue(
                        v.isNewerThan(newestRead),
                        "the change " + v + " must pass every read before it, " + newestRead);
                newestChange = v.isNewerThan(newestChange) ? v : newestChange;
            }
        }
        assertTrue(reads > 100, "incremental reads checked: " + reads);
    }

    static boolean isIncrementalRead(Captured r) {
        return r.value() != null && r.value().contains("\"snapshot\":\"incremental\"");
    }

    /** Every table of the stream against the cache {@code records} leave (keys the cache holds included), by kind. */
    Map<DivergenceChecker.Kind, List<CacheKey>> divergences(List<Captured> records) throws SQLException {
        DebeziumDecoder decoder = streamDecoder();
        Map<String, Set<CacheKey>> cachedByTable = new TreeMap<>();
        for (Captured r : records) {
            Decoded d = decoder.decode(bytes(r.key()), bytes(r.value()));
            if (d.ok()) {
                cachedByTable
                        .computeIfAbsent(d.event().getTable(), t -> new java.util.TreeSet<>())
                        .add(CacheKey.of(d.event().getKey()));
            }
        }
        Map<String, TableCheck.Table> checks = new java.util.LinkedHashMap<>();
        streamTables().read().tables().forEach((table, rows) -> {
            Map<CacheKey, ObjectNode> byKey = new TreeMap<>();
            rows.byKey().forEach((k, row) -> byKey.put(CacheKey.of(k), row));
            checks.put(
                    table, new TableCheck.Table(byKey, rows.compared(), cachedByTable.getOrDefault(table, Set.of())));
        });
        Map<DivergenceChecker.Kind, List<CacheKey>> byKind = new TreeMap<>();
        TableCheck.check(checks, ordered(records, decoder)).total().divergent().forEach(d -> byKind.computeIfAbsent(
                        d.kind(), k -> new ArrayList<>())
                .add(d.key()));
        return byKind;
    }

    private static String counts(Map<DivergenceChecker.Kind, List<CacheKey>> byKind) {
        return byKind.isEmpty()
                ? "no divergence"
                : byKind.entrySet().stream()
                        .map(e -> e.getValue().size() + " " + e.getKey())
                        .collect(java.util.stream.Collectors.joining(", "));
    }

    /** The keys {@code records} delete, decoded as the stream's job would. */
    private Set<CacheKey> deletedIn(List<Captured> records) {
        Set<CacheKey> keys = new java.util.TreeSet<>();
        for (Captured r : records) {
            Decoded d = streamDecoder().decode(bytes(r.key()), bytes(r.value()));
            if (d.ok() && ChangeEvents.cacheRecord(d.event()).tombstone()) {
                keys.add(CacheKey.of(d.event().getKey()));
            }
        }
        return keys;
    }

    /** Each table's rows as the check takes them. */
    private static Map<String, TableCheck.Table> tableChecks(SourceDatabase.Read read) {
        Map<String, TableCheck.Table> out = new java.util.LinkedHashMap<>();
        read.tables().forEach((table, rows) -> {
            Map<CacheKey, ObjectNode> byKey = new TreeMap<>();
            rows.byKey().forEach((k, row) -> byKey.put(CacheKey.of(k), row));
            out.put(table, new TableCheck.Table(byKey, rows.compared(), List.of()));
        });
        return out;
    }

    /** The cache the records leave, decoded and written through the ordered write in delivery order; the refused ones left out. */
    static CacheView ordered(List<Captured> records, DebeziumDecoder decoder) {
        InMemoryCacheStore store = new InMemoryCacheStore();
        ScnOrderedWriter writer = new ScnOrderedWriter(
                store, WriterSettings.defaults().withTtl(Duration.ofHours(1)), new InMemoryMetrics());
        for (Captured r : records) {
            Decoded d = decoder.decode(bytes(r.key()), bytes(r.value()));
            if (d.ok()) {
                WriteResult w = writer.write(CacheKey.of(d.event().getKey()), ChangeEvents.cacheRecord(d.event()));
                assertNotEquals(WriteOutcome.FAILED, w.outcome(), String.valueOf(w.failure()));
            }
        }
        return CacheView.of(store);
    }

    /** {@code table} as the connector names it: SCHEMA.TABLE, or DB.TABLE on MariaDB. */
    String qualified(String table) {
        return (source() == DatabaseSnapshot.Source.POSTGRES ? "public." : MariadbServer.DATABASE + ".") + table;
    }

    /** The rows of the one table of {@code database}. */
    static SourceDatabase.Rows rowsOf(SourceDatabase database) throws java.sql.SQLException {
        return database.read().tables().values().iterator().next();
    }

    /** The negative control: by arrival, with the first half delivered again, the check must see the difference. */
    @Test
    void aBlindUpsertOfARedeliveredPrefixDiverges() {
        List<Captured> again = new ArrayList<>(capture);
        again.addAll(capture.subList(0, capture.size() / 2));
        assertNotEquals(table, applyBlind(again));
    }

    /**
     * The race a real capture first showed: transaction A updates key k (so its new row version is
     * uncommitted); an INSERT of k writes its row, then waits on the key's unique index for A; A
     * deletes k and commits; the insert goes through and commits last, with a change LSN below A's
     * delete. Returns k.
     */
    private int insertWaitingOnADelete(int k) throws Exception {
        try (Connection a = connect();
                Connection watcher = connect()) {
            a.setAutoCommit(false);
            try (Statement s = a.createStatement()) {
                s.executeUpdate("UPDATE items SET v = 'updated-before-delete' WHERE id = " + k);
            }
            CompletableFuture<Void> insert = CompletableFuture.runAsync(() -> {
                try (Connection b = connect();
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

    /**
     * Four writers, 150 transactions each, on 60 keys: upserts, updates, deletes, primary-key changes,
     * up to three statements per transaction (keys in ascending order), one in six rolled back; deadlocks and key clashes are the
     * database's business (the transaction is rolled back and the writer goes on).
     */
    private void concurrentWriters(Random seeds) throws Exception {
        concurrentWriters(seeds, 4, 150);
    }

    private void concurrentWriters(Random seeds, int count, int transactions) throws Exception {
        List<CompletableFuture<Void>> writers = new ArrayList<>();
        for (int w = 0; w < count; w++) {
            long seed = seeds.nextLong();
            writers.add(CompletableFuture.runAsync(() -> write(new Random(seed), transactions)));
        }
        CompletableFuture.allOf(writers.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
    }

    private void write(Random random, int transactions) {
        try (Connection c = connect()) {
            c.setAutoCommit(false);
            for (int t = 0; t < transactions; t++) {
                try (Statement s = c.createStatement()) {
                    // keys in ascending order within a transaction, so that writers rarely deadlock
                    int[] keys =
                            random.ints(1 + random.nextInt(3), 1, 61).sorted().toArray();
                    for (int k : keys) {
                        String v = "'w" + t + "-" + random.nextInt(1000) + "'";
                        switch (random.nextInt(5)) {
                            case 0, 1 -> s.executeUpdate(upsert(k, v));
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
                transactionsDone.incrementAndGet();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The table as key to value column. */
    private Map<String, String> table() throws SQLException {
        Map<String, String> out = new TreeMap<>();
        try (Connection c = connect();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT id, v FROM items")) {
            while (r.next()) {
                out.put(Integer.toString(r.getInt(1)), r.getString(2));
            }
        }
        return out;
    }

    /** The records applied in arrival order, each overwriting the key: what a blind upsert leaves. */
    static Map<String, String> applyBlind(List<Captured> records) {
        Map<String, String> out = new TreeMap<>();
        for (Captured r : records) {
            Decoded d = BY_COMMIT.decode(bytes(r.key()), bytes(r.value()));
            if (!d.ok()) {
                continue;
            }
            CacheRecord record = ChangeEvents.cacheRecord(d.event());
            if (record.tombstone()) {
                out.remove(d.event().getKey());
            } else {
                out.put(d.event().getKey(), column(record.payload()));
            }
        }
        return out;
    }

    /** The capture decoded: its change events in delivery order (Debezium's tombstones left out). */
    static List<ChangeEvent> decoded(List<Captured> records) {
        List<ChangeEvent> out = new ArrayList<>();
        for (Captured r : records) {
            Decoded d = BY_COMMIT.decode(bytes(r.key()), bytes(r.value()));
            if (!d.isSkipped()) {
                assertTrue(d.ok(), () -> "refused: " + d.rejection() + " for " + r);
                out.add(d.event());
            }
        }
        return out;
    }

    /** Change events applied newest version first; what is left as key to value column. */
    static Map<String, String> applyEvents(List<ChangeEvent> events) {
        Map<CacheKey, CacheRecord> cache = new TreeMap<>();
        for (ChangeEvent e : events) {
            cache.merge(
                    CacheKey.of(e.getKey()),
                    ChangeEvents.cacheRecord(e),
                    (held, next) -> next.version().isNewerThan(held.version()) ? next : held);
        }
        Map<String, String> out = new TreeMap<>();
        cache.forEach((key, record) -> {
            if (!record.tombstone()) {
                out.put(key.value(), column(record.payload()));
            }
        });
        return out;
    }

    /** The records decoded and applied newest version first; what is left as key to value column. */
    static Map<String, String> apply(List<Captured> records, DebeziumDecoder decoder) {
        Map<String, String> out = new TreeMap<>();
        cache(records, decoder).forEach((key, record) -> {
            if (!record.tombstone()) {
                out.put(key.value(), column(record.payload()));
            }
        });
        return out;
    }

    /** The records decoded and applied newest version first: the cache they leave, tombstones included. */
    static Map<CacheKey, CacheRecord> cache(List<Captured> records, DebeziumDecoder decoder) {
        Map<CacheKey, CacheRecord> cache = new TreeMap<>();
        for (Captured r : records) {
            Decoded d = decoder.decode(bytes(r.key()), bytes(r.value()));
            if (d.isSkipped()) {
                continue;
            }
            assertTrue(d.ok(), () -> "refused: " + d.rejection() + " for " + r);
            cache.merge(
                    CacheKey.of(d.event().getKey()),
                    ChangeEvents.cacheRecord(d.event()),
                    (held, next) -> next.version().isNewerThan(held.version()) ? next : held);
        }
        return cache;
    }

    private static String column(byte[] row) {
        try {
            JsonNode image = JSON.readTree(new String(row, StandardCharsets.UTF_8));
            return image.path("v").asText();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    long count(String text) {
        synchronized (capture) {
            return capture.stream()
                    .filter(r -> r.value() != null && r.value().contains(text))
                    .count();
        }
    }

    static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }
}
