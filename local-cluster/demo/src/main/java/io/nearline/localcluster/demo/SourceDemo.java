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
package io.nearline.localcluster.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cdcbootstrap.core.BootstrapSettings;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.RowKey;
import io.nearline.common.config.Config;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.store.CacheStore;
import io.nearline.jobs.checker.CacheView;
import io.nearline.jobs.checker.DivergenceChecker;
import io.nearline.jobs.checker.TableCheck;
import io.nearline.jobs.client.JdbcRowSource;
import io.nearline.jobs.client.NearlineClient;
import io.nearline.jobs.cluster.database.DebeziumSignals;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.jobs.kit.processes.Home;
import io.nearline.jobs.verifier.SourceRepair;
import io.nearline.jobs.verifier.TableResync;
import io.nearline.localcluster.databases.MariadbServer;
import io.nearline.localcluster.databases.PostgresServer;
import io.nearline.localcluster.databases.Processes;
import io.nearline.localcluster.databases.SqlWorkload;
import io.nearline.localcluster.kit.processes.ForkedConnect;
import io.nearline.localcluster.kit.processes.ForkedStore;
import io.nearline.localcluster.kit.processes.LocalBroker;
import io.nearline.localcluster.kit.stores.LocalStores;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * {@code bin/nearline demo --source postgres|mysql}: a real database is the source of truth. A private
 * PostgreSQL or MariaDB (Debian's package) holds three tables ({@link SqlWorkload#TABLES}: {@code items},
 * {@code orders} whose ids are the items' numbers, {@code item_links} keyed by two columns); racing SQL
 * writers commit the workload across them at {@code --rate} transactions a second, after one
 * transaction held open while the connector starts, with a column added to two tables half-way.
 * Debezium's connector, from the shipped descriptor ({@code jobs/deploy/debezium-*.yaml}), runs in a
 * real Kafka Connect worker and streams all three tables to the one CDC topic; the cache updater reads
 * it on the engine with {@code cdc.debezium.tables} naming them, so each key names its table. A probe
 * writer commits one key, one change at a time 50 ms apart, and times each commit until the cache shows
 * it: the commit-to-cache staleness. The verdict compares, table by table, every row and every key the
 * workload could have deleted with the cache.
 */
final class SourceDemo {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONNECTOR = "nearline-demo-source";
    private static final int WRITERS = 4;

    /**
     * The reader's staleness bound: the job's freshness (under a second here) plus up to one publishing
     * interval (1 s) and the client's refresh (0.2 s), with room for the half-way schema change.
     */
    static final Duration READ_BOUND = Duration.ofSeconds(5);

    private final DemoOptions options;
    private final Demo.Engine engine;
    private final String kind;
    private final Path work;

    private SourceDemo(DemoOptions options, Demo.Engine engine, String kind, Path work) {
        this.options = options;
        this.engine = engine;
        this.kind = kind;
        this.work = work;
    }

    static int run(DemoOptions options, Demo.Engine engine) throws Exception {
        Path work = options.run.workDir("nearline-demo");
        // run by root, the database runs as its package's user, who must enter the work directory
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwx--x--x"));
        Optional<Path> closed = Processes.closedToServerUsers(work);
        if (closed.isPresent()) {
            throw new IllegalArgumentException("--source " + options.source + ": the database runs as its package's "
                    + "user, who cannot enter " + closed.get() + ": 'chmod o+x " + closed.get() + "', or give a "
                    + "--work-dir under directories others may enter");
        }
        if (!options.lose.isZero() && options.lose.compareTo(options.duration.dividedBy(2)) >= 0) {
            throw new IllegalArgumentException("--lose " + options.lose.toSeconds() + "s must be under half of "
                    + "--duration (" + options.duration.toSeconds() + "s): the writers go on after the loss");
        }
        return new SourceDemo(options, engine, options.source, work).call();
    }

    @SuppressWarnings("try") // the store's server, when the run started one, serves the whole try
    private int call() throws Exception {
        engine.localMetrics().reset();
        long started = System.currentTimeMillis();
        try (LocalBroker broker = engine.startBroker(work.resolve("kafka"));
                ForkedStore storeServer = options.store.startServerIfNeeded(work, options.run);
                Database db = Database.start(kind, work.resolve(kind))) {
            String bootstrap = broker.bootstrapServers();
            Config config = configure(bootstrap);
            options.store.probe(config);
            System.out.printf(
                    "demo on %s, source %s (%s): %,d keys, %,d transactions/s for %s, work dir %s%n",
                    engine.name(), kind, db.url, options.keys, options.rate, options.duration, work);
            SqlWorkload.Dialect dialect =
                    kind.equals("postgres") ? SqlWorkload.Dialect.POSTGRES : SqlWorkload.Dialect.MYSQL;
            createAndFillTheTables(db, dialect);
            try (ForkedConnect connect = engine.startConnect(work.resolve("connect"), bootstrap);
                    CacheStore store = LocalStores.open(config)) {
                startConnector(
                        connect,
                        db,
                        bootstrap,
                        CacheUpdaterSettings.from(config).cdcTopic());
                System.out.println("  connector " + CONNECTOR + " running on Kafka Connect " + connect.rest());
                AutoCloseable job = engine.start(config, work);
                Writing w = write(connect, db, store, dialect, config);
                System.out.println("  writers stopped; draining the cache...");
                List<TableResync.Outcome> resynced =
                        options.lose.isZero() ? List.of() : resyncEveryTable(db, store, bootstrap, config);
                TableCheck.Tables checked = check(db, store);
                DivergenceChecker.Report report = checked.total();
                job.close();
                Map<String, Object> summary = summary(w.result(), w.staleness(), w.millis(), report, started);
                summary.put("rowsTaggedAfterTheNewColumn", w.tagged());
                putReads(summary, w.reads());
                summary.put("tables", perTable(checked));
                if (!options.lose.isZero()) {
                    summary.put("lostStreamSeconds", options.lose.toSeconds());
                    summary.put(
                            "resyncRowsReread",
                            resynced.stream()
                                    .mapToLong(TableResync.Outcome::rowsReread)
                                    .sum());
                    summary.put(
                            "resyncKeysDeleted",
                            resynced.stream()
                                    .mapToLong(TableResync.Outcome::keysDeleted)
                                    .sum());
                    summary.put("resyncDone", resynced.stream().allMatch(TableResync.Outcome::done));
                }
                print(summary, checked);
                return Demo.conclude(options, engine, summary, report);
            }
        }
    }

    /** What the reader's reads through the client did, and why some went to the database. */
    private static void putReads(Map<String, Object> summary, NearlineClient.ReadCounts reads) {
        if (reads == null) {
            return; // the reader stopped early; it said why
        }
        summary.put("readerReads", reads.hits() + reads.readsThrough());
        summary.put("readerFromCache", reads.hits());
        summary.put("readerFromDatabase", reads.readsThrough());
        summary.put("readerMaxStalenessServedMillis", reads.maxStalenessServedMillis());
        summary.put("readerTooStale", reads.tooStale());
        summary.put("readerNothingPublished", reads.unknown());
        summary.put("readerMisses", reads.misses());
    }

    /**
     * What the writing did: the workload's result, the probe's commit-to-cache times, its length, rows
     * tagged, and what the reader's reads through the client library did meanwhile.
     */
    private record Writing(
            SqlWorkload.Result result,
            List<Long> staleness,
            long millis,
            long tagged,
            NearlineClient.ReadCounts reads) {}

    /**
     * The racing writers for {@code --duration}, with the probe timing commits to the cache, the half-way
     * schema change and, with {@code --lose}, the lost stretch after it.
     */
    private Writing write(
            ForkedConnect connect, Database db, CacheStore store, SqlWorkload.Dialect dialect, Config config)
            throws Exception {
        List<Long> staleness = new ArrayList<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        Thread probe = new Thread(() -> probe(db, store, writing, staleness), "commit-to-cache probe");
        probe.start();
        java.util.concurrent.atomic.AtomicReference<NearlineClient.ReadCounts> reads =
                new java.util.concurrent.atomic.AtomicReference<>();
        Thread reader = new Thread(() -> read(db, store, config, writing, reads), "reader");
        reader.start();
        AtomicLong tagged = new AtomicLong();
        java.util.concurrent.CountDownLatch columnsAdded = new java.util.concurrent.CountDownLatch(1);
        Thread schemaChange = new Thread(
                () -> {
                    try {
                        addAColumnHalfWay(db, writing, tagged, columnsAdded);
                    } finally {
                        columnsAdded.countDown();
                    }
                },
                "schema change");
        schemaChange.start();
        Thread loss = new Thread(() -> loseAStretch(connect, db, columnsAdded), "lost stretch");
        if (!options.lose.isZero()) {
            loss.start();
        }
        long writingFrom = System.currentTimeMillis();
        SqlWorkload.Result result;
        try {
            result = new SqlWorkload(
                            dialect,
                            WRITERS,
                            (int) (options.rate * options.duration.toSeconds()),
                            options.keys,
                            options.rate,
                            options.seed.value + 1)
                    .run(db::connect, options.duration);
        } finally {
            writing.set(false);
        }
        long millis = Math.max(1, System.currentTimeMillis() - writingFrom);
        probe.join();
        reader.join();
        schemaChange.join();
        loss.join();
        return new Writing(result, staleness, millis, tagged.get(), reads.get());
    }

    /**
     * An application reading while the writers, the job and the bootstrapper race: rows of items through
     * the client library, each within {@link #READ_BOUND} of staleness (from the cache when the job's published
     * consistent-through allows it, else from the database, written back). The verdict after the run
     * covers its write-backs too. At most 100 reads a second, until the writers stop.
     */
    private void read(
            Database db,
            CacheStore store,
            Config config,
            AtomicBoolean writing,
            java.util.concurrent.atomic.AtomicReference<NearlineClient.ReadCounts> out) {
        java.util.Random random = new java.util.Random(options.seed.value + 2);
        try (JdbcRowSource rows =
                        new JdbcRowSource(kind, () -> connect(db), CacheUpdaterSettings.debeziumKeys(config));
                NearlineClient client = NearlineClient.over(store, config, rows)) {
            while (writing.get()) {
                String id = Integer.toString(1 + random.nextInt(options.keys));
                client.read(qualified("items"), READ_BOUND, List.of(id));
                Thread.sleep(10);
            }
            out.set(client.counts());
        } catch (Exception e) {
            System.out.println("  the reader stopped: " + e);
        }
    }

    private static Connection connect(Database db) throws java.sql.SQLException {
        try {
            return db.connect();
        } catch (java.sql.SQLException e) {
            throw e;
        } catch (Exception e) {
            throw new java.sql.SQLException("connecting to the demo's database: " + e.getMessage(), e);
        }
    }

    /** The demo's tables, with their rows before the connector starts: the connector's snapshot reads them. */
    private void createAndFillTheTables(Database db, SqlWorkload.Dialect dialect) throws Exception {
        try (Connection c = db.connect()) {
            SqlWorkload.createTables(c);
            DebeziumSignals.create(c, qualified(DebeziumSignals.TABLE)).ifPresent(problem -> {
                throw new IllegalStateException(problem);
            });
        }
        new SqlWorkload(dialect, WRITERS, options.keys, options.keys, 0, options.seed.value)
                .run(db::connect, Duration.ofSeconds(120));
    }

    private Config configure(String bootstrap) {
        Map<String, String> choices = new LinkedHashMap<>();
        choices.put("kafka.bootstrap-servers", bootstrap);
        choices.put("cdc.consumer-group", "nearline-demo");
        choices.put("cdc.format", "debezium-json");
        choices.put("cdc.debezium.tables", String.join(",", tables()));
        // the engines run the bootstrapper beside the job; here its topic stays empty
        choices.put("bootstrap.enabled", "true");
        // for the demo's reader: the client library bounds its reads by the job's published consistent-through
        choices.put("write.consistent-through.publish-every", "1s");
        options.store.putSettings(choices, work, options.run);
        if (!options.store.isNetworked()) {
            choices.put("outage.enabled", "true"); // the embedded store behind the demo's switch (outage.lose-prefix)
        }
        Config config = options.run.jobConfig(choices);
        CacheUpdaterSettings.validateJob(config, BootstrapSettings.DEF);
        CacheUpdaterSettings settings = CacheUpdaterSettings.from(config);
        KafkaTopics.createTopics(
                bootstrap,
                Map.of(
                        settings.cdcTopic(), options.run.partitions,
                        settings.deadLetterTopic(), 1,
                        BootstrapSettings.from(config).topic(), options.run.partitions));
        return config;
    }

    /**
     * The shipped descriptor's connector settings (jobs/deploy/debezium-KIND.yaml), pointed at this run's
     * database and broker: the demo runs what a deploy runs.
     */
    private Map<String, String> connectorConfig(ForkedConnect connect, Database db, String bootstrap, String cdcTopic)
            throws Exception {
        Map<String, String> config = descriptorSettings();
        config.put("database.hostname", "127.0.0.1");
        config.put("database.port", "" + db.port);
        config.put("database.user", db.user);
        config.put("database.password", connect.secret("database.password", db.password)); // never inline
        config.put("table.include.list", String.join(",", tables()));
        if (kind.equals("postgres")) {
            config.put("database.dbname", PostgresServer.DATABASE);
        } else {
            config.put("database.include.list", MariadbServer.DATABASE);
            config.put("schema.history.internal.kafka.bootstrap.servers", bootstrap);
        }
        config.put("transforms.route.replacement", cdcTopic);
        config.put("tasks.max", "1");
        DebeziumSignals.pointAt(config, qualified(DebeziumSignals.TABLE)); // as a deploy points it
        return config;
    }

    /** The shipped descriptor's connector settings (jobs/deploy/debezium-KIND.yaml). */
    private Map<String, String> descriptorSettings() throws IOException {
        Path descriptor = Home.dir().resolve("jobs/deploy/debezium-" + kind + ".yaml");
        Map<String, Object> y = new Yaml(new SafeConstructor(new LoaderOptions()))
                .load(Files.readString(descriptor, StandardCharsets.UTF_8));
        Map<String, String> settings = new LinkedHashMap<>();
        ((Map<?, ?>) y.get("settings")).forEach((k, v) -> settings.put(String.valueOf(k), String.valueOf(v)));
        return settings;
    }

    /** The demo's tables as the connector names them: SCHEMA.TABLE, or DB.TABLE on MariaDB. */
    private List<String> tables() {
        return SqlWorkload.TABLES.keySet().stream().map(this::qualified).toList();
    }

    private String qualified(String table) {
        return (kind.equals("postgres") ? "public" : MariadbServer.DATABASE) + "." + table;
    }

    /** The cache key of a row of {@code table} (unqualified): with several tables, the key names its table. */
    private String key(String table, Object... values) {
        return RowKey.of(
                RowKey.tablePart(qualified(table)),
                Arrays.stream(values).map(String::valueOf).toList());
    }

    /**
     * Once the half-way schema change is made, the change stream loses {@code --lose} of the writing, as it does
     * when a connector restarts past its offsets: the connector is stopped while the writers go on, its
     * offsets are moved to the log's end (Kafka Connect's offsets API), and it resumes from there.
     */
    private void loseAStretch(ForkedConnect connect, Database db, java.util.concurrent.CountDownLatch columnsAdded) {
        try {
            // after the half-way schema change: a stretch holding DDL would leave MariaDB's connector without
            // the table's new schema (docs/operations.md#re-sync-a-table-after-a-loss)
            columnsAdded.await();
            System.out.printf("  >> the change stream loses the next %d s%n", options.lose.toSeconds());
            connect.stop(CONNECTOR);
            try {
                Thread.sleep(options.lose.toMillis());
                connect.moveOffsets(CONNECTOR, offsetsNow(db));
            } finally {
                connect.resume(CONNECTOR); // a failed move must not leave the stream stopped
            }
            System.out.println("  >> the connector streams again, past the lost stretch");
        } catch (Exception e) {
            System.out.println("  losing a stretch failed: " + e.getMessage());
        }
    }

    /**
     * The connector's source offset at the log's end now, as Kafka Connect's offsets API takes it: on
     * PostgreSQL the WAL position (and the slot advanced to it, so the server can serve it), on MariaDB
     * the binlog file and position.
     */
    private String offsetsNow(Database db) throws Exception {
        try (Connection c = db.connect();
                Statement s = c.createStatement()) {
            if (kind.equals("postgres")) {
                awaitNoReader(db); // the stopped task lets go of the slot a moment after Connect says STOPPED
                try (java.sql.ResultSet r = s.executeQuery(
                        "SELECT lsn - '0/0'::pg_lsn FROM pg_replication_slot_advance('nearline', pg_current_wal_lsn())"
                                + " AS a(slot, lsn)")) {
                    r.next();
                    long lsn = r.getLong(1);
                    return "{\"offsets\":[{\"partition\":{\"server\":\"nearline-pg\"},\"offset\":{\"lsn\":" + lsn
                            + ",\"lsn_proc\":" + lsn + ",\"lsn_commit\":" + lsn + "}}]}";
                }
            }
            try (java.sql.ResultSet r = s.executeQuery("SHOW MASTER STATUS")) {
                r.next();
                return "{\"offsets\":[{\"partition\":{\"server\":\"nearline-mysql\"},\"offset\":{\"file\":\""
                        + r.getString(1) + "\",\"pos\":" + r.getLong(2) + "}}]}";
            }
        }
    }

    /** Until PostgreSQL's slot has no reader (the stopped connector's task has let go), at most a minute. */
    private static void awaitNoReader(Database db) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (System.nanoTime() < deadline) {
            try (Connection c = db.connect();
                    Statement s = c.createStatement();
                    java.sql.ResultSet r = s.executeQuery("SELECT count(*) FROM pg_replication_slots WHERE active")) {
                r.next();
                if (r.getInt(1) == 0) {
                    return;
                }
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the stopped connector still reads the replication slot");
    }

    /** After a lost stretch: every table read again through the connector, and its deleted rows swept. */
    private List<TableResync.Outcome> resyncEveryTable(Database db, CacheStore store, String bootstrap, Config config)
            throws Exception {
        Map<String, String> connector = descriptorSettings();
        KafkaClient kafka = KafkaClient.plaintext(bootstrap);
        SourceDatabase database =
                SourceDatabase.of(kind, db.url, db.user, db.password, tables().toArray(String[]::new));
        TableResync resync = new TableResync(
                database,
                qualified(DebeziumSignals.TABLE),
                kafka,
                connector.get("notification.sink.topic.name"),
                new SourceRepair(
                        database,
                        kafka,
                        work.resolve("repair"),
                        config,
                        connector.get("topic.prefix") + ".message",
                        Duration.ofSeconds(60)),
                Duration.ofMinutes(2),
                System.out);
        List<TableResync.Outcome> out = new ArrayList<>();
        for (String table : tables()) {
            out.add(resync.run(table, null, store));
        }
        return out;
    }

    /** A transaction that changes two rows and stays open. */
    private static Connection holdATransactionOpen(Database db) throws Exception {
        Connection c = db.connect();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE items SET note = 'held across the snapshot' WHERE id = 1");
            s.executeUpdate("INSERT INTO items (id, name, qty) VALUES (0, 'held', 0)");
        }
        return c;
    }

    /**
     * Half-way through the writing, adds a column to items and one to orders (Debezium carries the new
     * schema in the events after it), then sets them on random rows until the writers stop; counts those
     * updates. The columns have no default: a default would be the table's value for every existing row
     * with no change event saying so (docs/debezium.md#schema-changes).
     */
    private void addAColumnHalfWay(
            Database db, AtomicBoolean writing, AtomicLong tagged, java.util.concurrent.CountDownLatch columnsAdded) {
        long halfWay = System.nanoTime() + options.duration.toNanos() / 2;
        try (Connection c = db.connect()) {
            while (writing.get() && System.nanoTime() < halfWay) {
                Thread.sleep(50);
            }
            if (!writing.get()) {
                return;
            }
            try (Statement s = c.createStatement()) {
                s.execute("ALTER TABLE items ADD COLUMN tag VARCHAR(20)");
                s.execute("ALTER TABLE orders ADD COLUMN channel VARCHAR(20)");
            }
            System.out.println("  >> columns added: items.tag, orders.channel");
            columnsAdded.countDown();
            java.util.Random random = new java.util.Random(options.seed.value + 5);
            try (PreparedStatement tag = c.prepareStatement("UPDATE items SET tag = ? WHERE id = ?");
                    PreparedStatement channel = c.prepareStatement("UPDATE orders SET channel = ? WHERE id = ?")) {
                while (writing.get()) {
                    tag.setString(1, "t" + random.nextInt(1000));
                    tag.setLong(2, 1 + random.nextInt(options.keys));
                    tagged.addAndGet(tag.executeUpdate());
                    channel.setString(1, random.nextBoolean() ? "web" : "store");
                    channel.setLong(2, 1 + random.nextInt(options.keys));
                    tagged.addAndGet(channel.executeUpdate());
                    Thread.sleep(20);
                }
            }
        } catch (Exception e) {
            System.out.println("  the schema change failed: " + e.getMessage());
        }
    }

    /**
     * Deploys Debezium's connector and waits until it runs, with a transaction open when it starts and
     * committed while it sets up: PostgreSQL's slot creation and MariaDB's snapshot lock wait for it.
     */
    private void startConnector(ForkedConnect connect, Database db, String bootstrap, String cdcTopic)
            throws Exception {
        Connection held = holdATransactionOpen(db);
        Thread commitLater = new Thread(() -> commitAfter(held, Duration.ofSeconds(2)), "held transaction");
        commitLater.start();
        connect.deploy(CONNECTOR, connectorConfig(connect, db, bootstrap, cdcTopic), Duration.ofSeconds(120));
        // what Connect keeps and shows: the reference, never the password (PostgreSQL's here may be empty)
        JsonNode kept = connect.get("/connectors/" + CONNECTOR + "/config");
        if (!kept.path("database.password").asText().startsWith("${file:")
                || !db.password.isEmpty() && kept.toString().contains(db.password)) {
            throw new IllegalStateException("the connector's config as Connect keeps it holds the database password");
        }
        commitLater.join();
    }

    private static void commitAfter(Connection held, Duration delay) {
        try (held) {
            Thread.sleep(delay.toMillis());
            held.commit();
        } catch (Exception e) {
            System.out.println("  the held transaction failed: " + e.getMessage());
        }
    }

    /**
     * One change at a time, 50 ms apart, commits a new qty for a key of its own (above the workload's) and polls the
     * cache until it shows that qty: the milliseconds from commit to cache, each added to {@code out}.
     */
    private void probe(Database db, CacheStore store, AtomicBoolean writing, List<Long> out) {
        long id = options.keys + 1L;
        CacheKey key = CacheKey.of(key("items", id));
        CacheView cache = CacheView.of(store);
        try (Connection c = db.connect();
                PreparedStatement upsert = c.prepareStatement(
                        kind.equals("postgres")
                                ? "INSERT INTO items (id, name, qty) VALUES (?, 'probe', ?) ON CONFLICT (id) DO UPDATE "
                                        + "SET qty = EXCLUDED.qty"
                                : "INSERT INTO items (id, name, qty) VALUES (?, 'probe', ?) ON DUPLICATE KEY UPDATE "
                                        + "qty = VALUES(qty)")) {
            for (int n = 1; writing.get() && n < 100_000; n++) {
                upsert.setLong(1, id);
                upsert.setInt(2, n);
                upsert.executeUpdate();
                long committed = System.nanoTime();
                long deadline = committed + Duration.ofSeconds(10).toNanos();
                while (System.nanoTime() < deadline && qty(cache, key) != n) {
                    Thread.sleep(1);
                }
                if (qty(cache, key) == n) {
                    out.add((System.nanoTime() - committed) / 1_000_000);
                }
                Thread.sleep(50);
            }
        } catch (Exception e) {
            System.out.println("  probe stopped: " + e.getMessage());
        }
    }

    private static int qty(CacheView cache, CacheKey key) {
        try {
            Optional<CacheRecord> r = cache.get(key);
            if (r.isEmpty() || r.get().tombstone()) {
                return -1;
            }
            return JSON.readTree(r.get().payload()).path("qty").asInt(-1);
        } catch (Exception e) {
            return -1; // the store is busy or the payload not yet there
        }
    }

    /**
     * Every row of each table, and every key of the workload's range in it, against the cache, until they
     * agree, or nothing has changed for {@link Demo#SETTLED} (the job has taken all there was), or 90 s.
     */
    private TableCheck.Tables check(Database db, CacheStore store) throws Exception {
        SourceDatabase.Read read = SourceDatabase.of(
                        kind, db.url, db.user, db.password, tables().toArray(String[]::new))
                .read();
        Map<String, List<CacheKey>> range = new LinkedHashMap<>();
        range.put("items", new ArrayList<>());
        range.put("orders", new ArrayList<>());
        range.put("item_links", new ArrayList<>());
        for (long id = 0; id <= options.keys + 1L; id++) {
            range.get("items").add(CacheKey.of(key("items", id)));
            range.get("orders").add(CacheKey.of(key("orders", id)));
            for (int tag = 1; tag <= SqlWorkload.TAGS; tag++) {
                range.get("item_links").add(CacheKey.of(key("item_links", id, tag)));
            }
        }
        Map<String, TableCheck.Table> tables = new LinkedHashMap<>();
        range.forEach((table, keys) -> {
            SourceDatabase.Rows rows = read.tables().get(qualified(table));
            Map<CacheKey, ObjectNode> byKey = new TreeMap<>();
            rows.byKey().forEach((k, row) -> byKey.put(CacheKey.of(k), row));
            tables.put(qualified(table), new TableCheck.Table(byKey, rows.compared(), keys));
            System.out.printf(
                    "  source %s: %,d rows; columns compared %s, not compared %s%n",
                    qualified(table), rows.byKey().size(), rows.compared(), rows.notCompared());
        });
        TableCheck.Tables[] last = {null};
        DivergenceChecker.checkUntilSettled(
                () -> {
                    last[0] = TableCheck.check(tables, CacheView.of(store));
                    return last[0].total();
                },
                System.nanoTime() + Duration.ofSeconds(90).toNanos(),
                Duration.ofMillis(500),
                Demo.SETTLED);
        return last[0];
    }

    private Map<String, Object> summary(
            SqlWorkload.Result result,
            List<Long> staleness,
            long writingMillis,
            DivergenceChecker.Report report,
            long started) {
        InMemoryMetrics counters = engine.localMetrics();
        long[] lag = Demo.sortedArray(staleness);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("engine", engine.name());
        s.put("store", options.store.store);
        s.put("source", kind);
        s.put("transactionsCommitted", result.committed());
        s.put("transactionsRolledBack", result.rolledBack());
        s.put("transactionsLostToARace", result.conflicts());
        s.put("commitRatePerSec", result.committed() * 1000 / writingMillis);
        s.put("eventsConsumed", counters.count("events.received"));
        s.put("eventsApplied", counters.count("write.applied"));
        s.put("eventsStale", counters.count("write.stale"));
        s.put("eventsDuplicate", counters.count("write.duplicate"));
        s.put("deadLetters", counters.count("events.dead-lettered"));
        s.put("throughputEventsPerSec", counters.count("events.received") * 1000 / writingMillis);
        s.put("stalenessSamples", lag.length);
        s.put("stalenessP50Millis", DivergenceChecker.Report.percentile(lag, 50));
        s.put("stalenessP99Millis", DivergenceChecker.Report.percentile(lag, 99));
        Demo.putFreshness(s, counters);
        s.put("keysChecked", report.keysChecked());
        s.put("divergentKeys", report.divergent().size());
        s.put("elapsedMillis", System.currentTimeMillis() - started);
        return s;
    }

    /** Each table's verdict for the summary: keys checked, divergent, and whether it converged. */
    private static Map<String, Object> perTable(TableCheck.Tables checked) {
        Map<String, Object> out = new LinkedHashMap<>();
        checked.byTable().forEach((table, r) -> {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("keysChecked", r.keysChecked());
            t.put("divergentKeys", r.divergent().size());
            t.put("converged", r.converged());
            out.put(table, t);
        });
        return out;
    }

    private static void print(Map<String, Object> s, TableCheck.Tables checked) {
        DivergenceChecker.Report report = checked.total();
        System.out.println();
        System.out.printf(
                "demo on %s from %s: done in %.0f s%n",
                s.get("engine"), s.get("source"), ((Number) s.get("elapsedMillis")).longValue() / 1000.0);
        System.out.printf(
                "  database         %,d transactions committed (%,d/s), %,d rolled back, %,d lost to a race%n",
                s.get("transactionsCommitted"),
                s.get("commitRatePerSec"),
                s.get("transactionsRolledBack"),
                s.get("transactionsLostToARace"));
        System.out.printf(
                "  cache updater    %,d events consumed (%,d/s): applied %,d  stale %,d  duplicate %,d  dead letters %,d%n",
                s.get("eventsConsumed"),
                s.get("throughputEventsPerSec"),
                s.get("eventsApplied"),
                s.get("eventsStale"),
                s.get("eventsDuplicate"),
                s.get("deadLetters"));
        System.out.printf(
                "  staleness        commit to cache p50 %,d ms, p99 %,d ms (%,d probes)%n",
                s.get("stalenessP50Millis"), s.get("stalenessP99Millis"), s.get("stalenessSamples"));
        Demo.printFreshness(s);
        if (s.containsKey("readerReads")) {
            System.out.printf(
                    "  reader           %,d reads of items within " + READ_BOUND.toSeconds()
                            + " s through the client: %,d from the cache (at most "
                            + "%,d ms behind), %,d from the database, written back%n",
                    s.get("readerReads"),
                    s.get("readerFromCache"),
                    s.get("readerMaxStalenessServedMillis"),
                    s.get("readerFromDatabase"));
        }
        System.out.printf(
                "  verdict          %s against %d tables: keys checked %,d, divergent %,d%n",
                report.converged() ? "CONVERGED" : "DIVERGED",
                checked.byTable().size(),
                report.keysChecked(),
                report.divergent().size());
        System.out.println(checked.perTable());
    }

    /** The run's database: a private server on loopback, and how to reach it. */
    private record Database(String url, int port, String user, String password, Runnable stop)
            implements AutoCloseable {

        static Database start(String kind, Path dir) throws Exception {
            if (kind.equals("postgres")) {
                PostgresServer.skipReason().ifPresent(why -> {
                    throw new IllegalStateException("--source postgres: " + why);
                });
                PostgresServer pg = PostgresServer.start(dir);
                return new Database(pg.jdbcUrl(), pg.port(), PostgresServer.USER, "", pg::close);
            }
            MariadbServer.skipReason().ifPresent(why -> {
                throw new IllegalStateException("--source mysql: " + why);
            });
            MariadbServer maria = MariadbServer.start(dir);
            return new Database(maria.jdbcUrl(), maria.port(), MariadbServer.USER, maria.password(), maria::close);
        }

        Connection connect() throws Exception {
            return DriverManager.getConnection(url, user, password);
        }

        @Override
        public void close() {
            stop.run();
        }
    }
}
