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
package io.nearline.jobs.verifier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.config.Config;
import io.nearline.common.store.CacheStore;
import io.nearline.jobs.checker.CacheView;
import io.nearline.jobs.checker.DivergenceChecker;
import io.nearline.jobs.checker.SuspectKeys;
import io.nearline.jobs.checker.TableCheck;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterOption;
import io.nearline.jobs.cluster.ClusterPrometheus;
import io.nearline.jobs.cluster.LiveStores;
import io.nearline.jobs.cluster.PrivateLink;
import io.nearline.jobs.cluster.database.CachedKeysSweep;
import io.nearline.jobs.cluster.database.SampledRead;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.jobs.kit.console.DurationConverter;
import io.nearline.jobs.kit.console.LinesFile;
import io.nearline.jobs.kit.console.SummaryJsonOption;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.URI;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nearline verify}: the cache against the database, round after round, while the job runs. */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description = {
            "Compare the cache with the database again and again while the job runs: each round, the next "
                    + "--keys-per-round rows of every table the cluster file's 'postgres:' or 'mysql:' section lists "
                    + "(in key order, a pass through each table after another), and the keys that differed last round. "
                    + "A key that differs may be a change on its way: it is reported divergent only when, its row "
                    + "unchanged, the job's consistent-through (read from the cluster's Prometheus) has passed the "
                    + "round that first saw it, or it has differed for --in-flight.%n",
            "Exports nearline_verify_checked, nearline_verify_divergent and nearline_verify_repaired (per table) on a Prometheus "
                    + "endpoint, which the cluster's Prometheus finds on its own (cluster up --prometheus). "
                    + "Exits 0 when every key confirmed divergent in the last round (if any) was repaired, "
                    + "1 otherwise.%n"
        })
public final class VerifyCommand implements Callable<Integer> {

    @Option(names = "--source", required = true, paramLabel = "DATABASE", description = "postgres or mysql.")
    String source;

    @Option(
            names = "--store",
            paramLabel = "STORE",
            description = "couchbase or redis: the cache the cluster file names (default: its store).")
    String store;

    @Option(
            names = "--every",
            converter = DurationConverter.class,
            paramLabel = "DURATION",
            defaultValue = "10s",
            description = "Time between rounds. Default: ${DEFAULT-VALUE}.")
    Duration every;

    @Option(
            names = "--in-flight",
            converter = DurationConverter.class,
            paramLabel = "DURATION",
            defaultValue = "60s",
            description = "How long a key may differ, its row unchanged, while the job's watermark does not pass "
                    + "it, before it is reported. Default: ${DEFAULT-VALUE}.")
    Duration inFlight;

    @Option(
            names = "--duration",
            converter = DurationConverter.class,
            paramLabel = "DURATION",
            defaultValue = "0s",
            description = "Stop after this long (0: run until stopped). Default: ${DEFAULT-VALUE}.")
    Duration duration;

    @Option(
            names = "--metrics-port",
            defaultValue = "9464",
            description = "The Prometheus endpoint's port (0: none). Default: ${DEFAULT-VALUE}.")
    int metricsPort;

    @Option(
            names = "--name",
            paramLabel = "NAME",
            defaultValue = "nearline-verify",
            description = "The verifier's name: its series' job label, and its file among the cluster's Prometheus "
                    + "targets (a deployed verifier's is its descriptor's name). Default: ${DEFAULT-VALUE}.")
    String name;

    @Option(
            names = "--keys-per-round",
            paramLabel = "N",
            defaultValue = "10000",
            description = "Rows read from each table a round, in key order, going on from where the last round "
                    + "stopped (and from the first row after the last), besides the keys that differed last round; "
                    + "0: every row every round. With --every this sets the load on the database and the store. "
                    + "Default: ${DEFAULT-VALUE}.")
    int keysPerRound;

    @Option(
            names = "--repair",
            description = "Write each confirmed key's row from the database into the cache, through the ordered "
                    + "write at the version of one consistent read (as 'bootstrap run --from' takes it): a repair "
                    + "never overwrites a newer change. A key the database has no row for gets a tombstone.")
    boolean repair;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "With --repair: the cache updater's settings (.properties or .yaml), for its TTLs "
                    + "(cache.ttl, cdc.debezium.table.<table>.ttl).")
    Path config;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            description = "With --repair: overrides one setting; repeatable.")
    Map<String, String> overrides = new LinkedHashMap<>();

    @Option(
            names = "--watermark-topic",
            defaultValue = "nearline-pg.message",
            description = "With --repair --source postgres: where Debezium's connector streams logical-decoding "
                    + "messages, <topic.prefix>.message (default: ${DEFAULT-VALUE}, the shipped descriptor's).")
    String watermarkTopic;

    @Mixin
    ClusterOption cluster;

    @Mixin
    SummaryJsonOption summaryJson;

    /** This round's result, per table; {@code repaired}: the keys --repair put right. */
    private record Round(
            Map<String, Long> checked, Map<String, Long> divergent, int inFlight, Map<String, Long> repaired) {}

    @Override
    public Integer call() throws Exception {
        if (!List.of("postgres", "mysql").contains(source)) {
            throw new ClusterException("--source " + source + ": give postgres or mysql");
        }
        if (every.isZero() || every.isNegative()) {
            throw new ClusterException("--every must be above 0, got " + every);
        }
        if (keysPerRound < 0) {
            throw new ClusterException("--keys-per-round must be 0 (every row) or more, got " + keysPerRound);
        }
        ClusterFile c = cluster.read();
        SourceDatabase database = SourceDatabase.fromClusterFile(c.dir(), source);
        SuspectKeys suspects = new SuspectKeys(inFlight);
        SampledRead slices = keysPerRound == 0 ? null : new SampledRead(database, keysPerRound);
        sweep = new CachedKeysSweep(database, keysPerRound);
        SourceRepair repairs = repair
                ? new SourceRepair(
                        c,
                        source,
                        (config == null ? Config.empty() : Config.load(config)).withOverrides(overrides),
                        watermarkTopic,
                        Duration.ofSeconds(60))
                : null;
        long ends = duration.isZero() ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
        Round last = null;
        int rounds = 0;
        Map<String, Long> repairedByTable = new TreeMap<>();
        System.out.println("verify: " + database + " against the cache, every " + every.toSeconds() + " s");
        try (CacheStore cache = LiveStores.open(store == null ? c.store() : store, c);
                Exported exported = new Exported(c, name, metricsPort)) {
            do {
                long started = System.nanoTime();
                last = round(c, database, slices, cache, suspects, repairs);
                rounds++;
                last.repaired().forEach((table, n) -> repairedByTable.merge(table, n, Long::sum));
                exported.record(last);
                long pause = every.toMillis() - (System.nanoTime() - started) / 1_000_000;
                if (System.nanoTime() < ends && pause > 0) {
                    Thread.sleep(Math.min(pause, Math.max(0, (ends - System.nanoTime()) / 1_000_000)));
                }
            } while (System.nanoTime() < ends);
        }
        long divergent =
                last.divergent().values().stream().mapToLong(Long::longValue).sum();
        long repairedTotal =
                repairedByTable.values().stream().mapToLong(Long::longValue).sum();
        writeSummary(last, rounds, repairedByTable, repairedTotal);
        System.out.printf(
                "verify: %d rounds; the last checked %,d keys, %,d divergent, %,d in flight%s%n",
                rounds,
                last.checked().values().stream().mapToLong(Long::longValue).sum(),
                divergent,
                last.inFlight(),
                repair ? String.format("; repaired %,d", repairedTotal) : "");
        long unrepaired = divergent
                - last.repaired().values().stream().mapToLong(Long::longValue).sum();
        return unrepaired == 0 ? 0 : 1;
    }

    /** One round: the watermark, then every table, then the cache; what differs goes through the suspects. */
    private Round round(
            ClusterFile c,
            SourceDatabase database,
            SampledRead slices,
            CacheStore cache,
            SuspectKeys suspects,
            SourceRepair repairs)
            throws Exception {
        long consistentThrough = consistentThrough(c);
        long readAt = System.currentTimeMillis();
        long started = System.nanoTime();
        Compared compared = compare(swept(read(database, slices, suspects), cache, suspects), cache);
        List<SuspectKeys.Confirmed> confirmed = slices == null
                ? suspects.round(compared.differing(), readAt, consistentThrough)
                : suspects.round(compared.differing(), compared.checkedKeys()::contains, readAt, consistentThrough);
        keyValues.keySet().retainAll(suspects.suspects().keySet()); // kept only to read the suspects again
        Map<String, Long> divergent = new LinkedHashMap<>();
        compared.keys().keySet().forEach(table -> divergent.put(table, 0L));
        for (SuspectKeys.Confirmed d : confirmed) {
            divergent.merge(d.table(), 1L, Long::sum);
            System.out.println("  DIVERGENT " + d.table() + " " + d.key() + ": " + d.why());
        }
        Map<String, Long> repaired =
                repairs == null || confirmed.isEmpty() ? Map.of() : repair(repairs, cache, confirmed, compared.rows());
        Round round = new Round(compared.keys(), divergent, suspects.inFlight(confirmed), repaired);
        System.out.printf(
                "  round: %,d keys checked in %,d ms, %,d divergent, %,d in flight%s%n",
                compared.keys().values().stream().mapToLong(Long::longValue).sum(),
                (System.nanoTime() - started) / 1_000_000,
                confirmed.size(),
                round.inFlight(),
                consistentThrough == 0 ? " (the job's consistent-through not known)" : "");
        return round;
    }

    /** Lists the cache's keys of each table, a slice a round, to find those whose rows are gone. */
    private CachedKeysSweep sweep;

    /** Tables whose cache keys could not be listed, said once. */
    private final Set<String> notSwept = new HashSet<>();

    /**
     * The reading with the cache's keys whose rows the database no longer has added to its gone keys
     * (a delete the stream lost), the next slice of them a round, and again those found before.
     */
    private Reading swept(Reading reading, CacheStore cache, SuspectKeys suspects) throws SQLException {
        Map<String, Set<String>> covered = new HashMap<>();
        reading.read()
                .tables()
                .forEach((table, rows) ->
                        covered.put(table, new HashSet<>(rows.byKey().keySet())));
        reading.gone().forEach((table, keys) -> covered.computeIfAbsent(table, t -> new HashSet<>())
                .addAll(keys));
        Map<String, List<String>> recheck = new HashMap<>();
        suspects.suspects().forEach((key, table) -> {
            if (!keyValues.containsKey(key)) { // found by the sweep: no key values to read it again by
                recheck.computeIfAbsent(table, t -> new ArrayList<>()).add(key);
            }
        });
        CachedKeysSweep.Found found = sweep.next(cache, covered, recheck);
        found.notSwept().forEach((table, why) -> {
            if (notSwept.add(table)) {
                System.out.println("  " + table + ": the cache's keys are not swept for deleted rows: " + why);
            }
        });
        Map<String, List<String>> gone = new HashMap<>();
        reading.gone().forEach((table, keys) -> gone.put(table, new ArrayList<>(keys)));
        found.gone().forEach((table, keys) -> gone.computeIfAbsent(table, t -> new ArrayList<>())
                .addAll(keys));
        return new Reading(reading.read(), gone);
    }

    /** What a round read: the rows of every table, and the keys a slice found gone from the database. */
    private record Reading(SourceDatabase.Read read, Map<String, List<String>> gone) {}

    /** All rows, or with --keys-per-round the suspects again and the next slice. */
    private Reading read(SourceDatabase database, SampledRead slices, SuspectKeys suspects) throws Exception {
        if (slices == null) {
            return new Reading(database.read(), Map.of());
        }
        SampledRead.Round slice = slices.next(again(suspects));
        keyValues.putAll(slice.keyValues());
        return new Reading(slice.read(), slice.gone());
    }

    /**
     * The cache against a round's reading: the keys checked per table, those that differ (suspects
     * until the watermark passes the read), every key the reading covered, and its rows by table.
     */
    private record Compared(
            Map<String, Long> keys,
            List<SuspectKeys.Divergent> differing,
            Set<String> checkedKeys,
            Map<String, Map<CacheKey, JsonNode>> rows) {}

    private static Compared compare(Reading reading, CacheStore cache) {
        Map<String, TableCheck.Table> tables = new LinkedHashMap<>();
        Map<String, Map<CacheKey, JsonNode>> rows = new LinkedHashMap<>();
        Set<String> checkedKeys = new HashSet<>();
        for (Map.Entry<String, SourceDatabase.Rows> t : reading.read().tables().entrySet()) {
            Map<CacheKey, JsonNode> byKey = new TreeMap<>();
            t.getValue().byKey().forEach((k, row) -> byKey.put(CacheKey.of(k), row));
            rows.put(t.getKey(), byKey);
            List<String> goneHere = reading.gone().getOrDefault(t.getKey(), List.of());
            tables.put(
                    t.getKey(),
                    new TableCheck.Table(
                            byKey,
                            t.getValue().compared(),
                            goneHere.stream().map(CacheKey::of).toList()));
            checkedKeys.addAll(t.getValue().byKey().keySet());
            checkedKeys.addAll(goneHere);
        }
        TableCheck.Tables checked = TableCheck.check(tables, CacheView.of(cache));
        List<SuspectKeys.Divergent> differing = new ArrayList<>();
        Map<String, Long> keys = new LinkedHashMap<>();
        checked.byTable().forEach((name, report) -> {
            keys.put(name, report.keysChecked());
            for (DivergenceChecker.Divergence d : report.divergent()) {
                differing.add(new SuspectKeys.Divergent(
                        name, d.key().value(), rows.get(name).get(d.key())));
            }
        });
        return new Compared(keys, differing, checkedKeys, rows);
    }

    /** Each suspect's key column values, by cache key: how a sampled round reads it again. */
    private final Map<String, List<Object>> keyValues = new HashMap<>();

    /**
     * The suspects to read again, by table: cache key → key values, the longest suspected first and at
     * most --keys-per-round a table (a cache that differs everywhere doubles a round's reads, no more);
     * the rest wait for a later round or their slice.
     */
    private Map<String, Map<String, List<Object>>> again(SuspectKeys suspects) {
        Map<String, Map<String, List<Object>>> out = new HashMap<>();
        suspects.suspects().forEach((key, table) -> {
            List<Object> values = keyValues.get(key);
            Map<String, List<Object>> ofTable = out.computeIfAbsent(table, t -> new LinkedHashMap<>());
            if (values != null && ofTable.size() < keysPerRound) {
                ofTable.put(key, values);
            }
        });
        return out;
    }

    /** The confirmed keys written from one read of the database; the keys put right, per table. */
    private static Map<String, Long> repair(
            SourceRepair repairs,
            CacheStore cache,
            List<SuspectKeys.Confirmed> confirmed,
            Map<String, Map<CacheKey, JsonNode>> rows)
            throws Exception {
        List<SourceRepair.Wrong> wrong = confirmed.stream()
                .map(d -> new SourceRepair.Wrong(
                        d.table(), d.key(), rows.get(d.table()).containsKey(CacheKey.of(d.key()))))
                .toList();
        Map<String, Long> applied = new LinkedHashMap<>();
        for (SourceRepair.Repaired r : repairs.repair(wrong, cache)) {
            System.out.println("  REPAIR " + r.wrong().table() + " " + r.wrong().key() + ": " + r.outcome() + " ("
                    + r.why() + ")");
            if (r.outcome().equals("applied")) {
                applied.merge(r.wrong().table(), 1L, Long::sum);
            }
        }
        return applied;
    }

    /** The job's watermark, every partition's lowest, from the cluster's Prometheus; 0 when not known. */
    private static long consistentThrough(ClusterFile c) {
        if (c.prometheusUrl() == null) {
            return 0;
        }
        try {
            JsonNode result =
                    ClusterPrometheus.query(URI.create(c.prometheusUrl()), "min(nearline_consistent_through_seconds)");
            return result.isEmpty()
                    ? 0
                    : Math.round(result.get(0).path("value").get(1).asDouble() * 1000);
        } catch (Exception unknown) { // not up, or nothing recorded yet: the allowance decides
            return 0;
        }
    }

    private void writeSummary(Round last, int rounds, Map<String, Long> repairedByTable, long repairedTotal)
            throws Exception {
        if (summaryJson.file == null) {
            return;
        }
        ObjectNode json = new ObjectMapper().createObjectNode();
        json.put("rounds", rounds);
        json.put("inFlight", last.inFlight());
        json.put("repairedKeys", repairedTotal);
        ObjectNode tables = json.putObject("tables");
        last.checked().forEach((table, n) -> tables.putObject(table)
                .put("keysChecked", n)
                .put("divergentKeys", last.divergent().get(table))
                .put("repairedKeys", repairedByTable.getOrDefault(table, 0L)));
        json.put(
                "divergentKeys",
                last.divergent().values().stream().mapToLong(Long::longValue).sum());
        LinesFile.write(summaryJson.file, List.of(json.toString()));
    }

    /**
     * The verifier's series on a Prometheus endpoint (the Prometheus Java client): on a local cluster at
     * this machine's side of its network, where the cluster's Prometheus reaches it, and named in the
     * cluster's discovery files while it runs.
     */
    private static final class Exported implements AutoCloseable {
        private final PrometheusRegistry registry = new PrometheusRegistry();
        private final Counter checked = Counter.builder()
                .name("nearline_verify_checked")
                .help("Keys compared with the database, per table.")
                .labelNames("table")
                .register(registry);
        private final Gauge divergent = Gauge.builder()
                .name("nearline_verify_divergent")
                .help("Keys confirmed different from the database in the last round, per table.")
                .labelNames("table")
                .register(registry);
        private final Counter repaired = Counter.builder()
                .name("nearline_verify_repaired")
                .help("Keys verify --repair wrote from the database into the cache, per table.")
                .labelNames("table")
                .register(registry);
        private final HTTPServer server;
        private final ClusterFile cluster;
        private final String name;

        Exported(ClusterFile cluster, String name, int port) throws Exception {
            this.cluster = cluster;
            this.name = name;
            if (port == 0) {
                server = null;
                return;
            }
            String host = cluster.namespace() == null
                    ? "127.0.0.1"
                    : PrivateLink.of(cluster.dir()).hostAddress();
            server = HTTPServer.builder()
                    .hostname(host)
                    .port(port)
                    .registry(registry)
                    .buildAndStart();
            ClusterPrometheus.targets(cluster.dir(), name, List.of(host + ":" + port), Map.of("job", name));
            System.out.println("  metrics: http://" + host + ":" + port + "/metrics");
        }

        void record(Round round) {
            round.checked().forEach((table, n) -> checked.labelValues(table).inc(n));
            round.divergent().forEach((table, n) -> divergent.labelValues(table).set(n));
            round.repaired().forEach((table, n) -> repaired.labelValues(table).inc(n));
        }

        @Override
        public void close() {
            if (server != null) {
                ClusterPrometheus.untarget(cluster.dir(), name);
                server.close();
            }
        }
    }
}
