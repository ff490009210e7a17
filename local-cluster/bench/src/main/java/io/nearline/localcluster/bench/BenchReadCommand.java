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
package io.nearline.localcluster.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.ConsistentThroughEntry;
import io.nearline.common.config.Config;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import io.nearline.common.version.Version;
import io.nearline.jobs.client.JdbcRowSource;
import io.nearline.jobs.client.NearlineClient;
import io.nearline.jobs.client.Read;
import io.nearline.localcluster.databases.PostgresServer;
import io.nearline.localcluster.kit.processes.ForkedStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nearline bench read}: reads through the client library against raw gets, and reads through to PostgreSQL. */
@Command(
        name = "read",
        mixinStandardHelpOptions = true,
        description = {
            "Read a filled store through the client library (a staleness bound the published consistent-through "
                    + "meets, so every read is served from the cache) and with raw gets of the same keys, in "
                    + "alternated rounds on one thread; then reads that go through to a real PostgreSQL and "
                    + "write back, their latency. Each read is checked against the row written or the table's. "
                    + "What publishing costs the job: bench cdc --against publishing.%n"
        })
public final class BenchReadCommand implements Callable<Integer> {

    private static final String TABLE = "public.bench_items";

    @Option(names = "--keys", defaultValue = "20000", description = "Keys in the store (default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--reads", defaultValue = "200000", description = "Reads per round (default: ${DEFAULT-VALUE}).")
    int reads;

    @Option(names = "--rounds", defaultValue = "3", description = "Alternated rounds (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
            names = "--through-reads",
            defaultValue = "5000",
            description = "Reads through to PostgreSQL, over as many rows (default: ${DEFAULT-VALUE}; 0 leaves "
                    + "them out).")
    int throughReads;

    @Option(
            names = "--store",
            defaultValue = "redis",
            description = "redis (a redis-server of its own; default). Couchbase cannot list the published "
                    + "entries, so every bounded read there goes to the database.")
    String store;

    @Option(names = "--work-dir", description = "Where the store and the database go (default: a temporary directory).")
    Path workDir;

    @Option(names = "--summary-json", paramLabel = "FILE", description = Benches.SUMMARY_JSON)
    Path summaryJson;

    @Override
    public Integer call() throws Exception {
        Benches.positive("--keys", keys, "--reads", reads, "--rounds", rounds);
        if (throughReads < 0) {
            throw new IllegalArgumentException("--through-reads must be 0 or more, got " + throughReads);
        }
        if (!store.equals("redis")) {
            throw new IllegalArgumentException("--store must be redis (Couchbase cannot list the entries a "
                    + "bounded read needs), got " + store);
        }
        return WorkDirs.inWorkDir(workDir, "nearline-bench-read", this::bench);
    }

    private int bench(Path work) throws Exception {
        try (ForkedStore server = ForkedStore.start(store, work)) {
            System.out.println("bench read: " + server.describe());
            Map<String, String> s = new LinkedHashMap<>(server.settings());
            s.put("cdc.format", "debezium-json");
            s.put("cdc.debezium.tables", TABLE);
            Config config = Config.of(s);
            ObjectNode m = Benches.JSON.createObjectNode();
            boolean verified = fromCache(config, m);
            if (throughReads > 0) {
                verified &= readThrough(config, work, m);
            }
            m.put("verified", verified);
            Map<String, ObjectNode> members = new LinkedHashMap<>();
            members.put(store, m);
            return Benches.finish(
                    String.format(
                            "bench read (%,d keys, %,d reads a round, %d rounds, %s)", keys, reads, rounds, store),
                    members,
                    engine -> work,
                    summaryJson);
        }
    }

    /** Alternated rounds of client reads and raw gets over the same keys; the medians and their ratio into {@code m}. */
    private boolean fromCache(Config config, ObjectNode m) throws Exception {
        byte[][] rows = new byte[keys][];
        try (CacheStore raw = CacheStores.open(config);
                NearlineClient client = NearlineClient.open(config, null)) {
            ScnOrderedWriter writer = new ScnOrderedWriter(raw, WriterSettings.from(config), Metrics.NONE);
            for (int i = 0; i < keys; i++) {
                rows[i] = ("{\"id\":" + i + ",\"name\":\"item-" + i + "\",\"qty\":" + i % 100 + "}")
                        .getBytes(StandardCharsets.UTF_8);
                writer.write(
                        CacheKey.of(client.key(TABLE, List.of(Integer.toString(i)))),
                        CacheRecord.upsert(Version.of(1000 + i, 1, 0), 0, rows[i]));
            }
            publish(writer, Version.of(1000 + keys, 0, 0));
            System.out.printf("bench read: %,d rows written, consistent-through published%n", keys);
            List<Long> ours = new ArrayList<>();
            List<Long> theirs = new ArrayList<>();
            boolean verified = true;
            Random random = new Random(7);
            for (int r = 1; r <= rounds; r++) {
                int[] order = random.ints(reads, 0, keys).toArray();
                long t0 = System.nanoTime();
                for (int i : order) {
                    Read read = client.read(TABLE, Duration.ofHours(1), List.of(Integer.toString(i)));
                    verified &= read.from() == Read.From.CACHE && Arrays.equals(read.payload(), rows[i]);
                }
                ours.add(perSec(reads, System.nanoTime() - t0));
                String[] rawKeys = Arrays.stream(order)
                        .mapToObj(i -> client.key(TABLE, List.of(Integer.toString(i))))
                        .toArray(String[]::new);
                t0 = System.nanoTime();
                for (String key : rawKeys) {
                    verified &= raw.get(CacheKey.of(key)).isPresent();
                }
                theirs.add(perSec(reads, System.nanoTime() - t0));
                System.out.printf(
                        "  round %d: client %,d reads/s, raw get %,d/s%n", r, ours.get(r - 1), theirs.get(r - 1));
            }
            NearlineClient.ReadCounts counts = client.counts();
            long served = counts.hits();
            m.put("clientReadsPerSec", Math.round(Benches.median(ours)));
            m.put("rawGetsPerSec", Math.round(Benches.median(theirs)));
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < ours.size(); i++) {
                ratios.add(Benches.ratio(ours.get(i), theirs.get(i)));
            }
            m.put("clientPerRaw", Math.round(Benches.median(ratios) * 1000) / 1000.0);
            m.put("servedFromCache", Benches.ratio(served, (double) reads * rounds));
            m.putPOJO("roundsClientPerSec", ours);
            m.putPOJO("roundsRawPerSec", theirs);
            if (!verified) {
                System.out.println("  check: a client read was not the row written, or not from the cache");
            }
            return verified;
        }
    }

    private void publish(ScnOrderedWriter writer, Version through) {
        ConsistentThroughEntry e = new ConsistentThroughEntry(
                TABLE, 0, "bench", System.currentTimeMillis(), through, System.currentTimeMillis());
        writer.write(
                CacheKey.of(ConsistentThroughEntry.key(ConsistentThroughEntry.DEFAULT_KEY_PREFIX, TABLE, 0, "bench")),
                CacheRecord.upsert(through, 0, e.payload()));
    }

    /** Reads that go through to PostgreSQL (a bound of 0): their latency into {@code m}; skipped with the reason where PostgreSQL is not here. */
    private boolean readThrough(Config config, Path work, ObjectNode m) throws Exception {
        Optional<String> skip = PostgresServer.skipReason();
        if (skip.isPresent()) {
            System.out.println("bench read: reads through skipped: " + skip.get());
            m.put("readThroughSkipped", skip.get());
            return true;
        }
        // PostgreSQL runs as its own user when the bench runs as root: it must reach its directory
        java.nio.file.Files.setPosixFilePermissions(
                work, java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
        try (PostgresServer pg = PostgresServer.start(work.resolve("postgres"));
                Connection c = pg.connect()) {
            c.createStatement().execute("CREATE TABLE bench_items (id BIGINT PRIMARY KEY, name TEXT, qty INTEGER)");
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO bench_items VALUES (?, ?, ?)")) {
                for (int i = 0; i < throughReads; i++) {
                    insert.setLong(1, i);
                    insert.setString(2, "row-" + i);
                    insert.setInt(3, i % 7);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            long[] micros = new long[throughReads];
            boolean verified = true;
            try (JdbcRowSource rows = new JdbcRowSource(
                            "postgres",
                            pg::connect,
                            io.nearline.cacheupdater.core.CacheUpdaterSettings.debeziumKeys(config));
                    NearlineClient client = NearlineClient.open(config, rows)) {
                for (int i = 0; i < throughReads; i++) {
                    long t0 = System.nanoTime();
                    Read read = client.read(TABLE, Duration.ZERO, List.of(Integer.toString(i)));
                    micros[i] = (System.nanoTime() - t0) / 1000;
                    verified &= read.from() == Read.From.DATABASE && read.row().contains("\"row-" + i + "\"");
                }
            }
            Arrays.sort(micros);
            m.put("readsThrough", throughReads);
            m.put("readThroughP50Micros", micros[throughReads / 2]);
            m.put("readThroughP99Micros", micros[Math.min(throughReads - 1, (int) (throughReads * 0.99))]);
            System.out.printf(
                    "  reads through PostgreSQL: p50 %,d µs, p99 %,d µs over %,d reads%n",
                    micros[throughReads / 2],
                    micros[Math.min(throughReads - 1, (int) (throughReads * 0.99))],
                    throughReads);
            if (!verified) {
                System.out.println("  check: a read through was not the table's row");
            }
            return verified;
        }
    }

    private static long perSec(long n, long nanos) {
        return Math.round(n * 1e9 / Math.max(1, nanos));
    }
}
