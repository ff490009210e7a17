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

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cdcbootstrap.core.BootstrapSettings;
import io.nearline.cdcbootstrap.core.SnapshotProducer;
import io.nearline.cdcbootstrap.core.SnapshotRows;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.config.Config;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreUnavailableException;
import io.nearline.jobs.checker.CacheView;
import io.nearline.jobs.checker.DivergenceChecker;
import io.nearline.jobs.checker.Row;
import io.nearline.jobs.kit.console.LinesFile;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.kit.processes.ForkedConnect;
import io.nearline.localcluster.kit.processes.ForkedStore;
import io.nearline.localcluster.kit.processes.LocalBroker;
import io.nearline.localcluster.kit.processes.LocalEngine;
import io.nearline.localcluster.sourcesimulator.ReadRepair;
import io.nearline.localcluster.sourcesimulator.Snapshot;
import io.nearline.localcluster.sourcesimulator.SourceOfTruth;
import io.nearline.localcluster.sourcesimulator.Workload;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * {@code bin/nearline demo}, the same on every engine: the source-of-truth simulator commits a skewed
 * workload and publishes every commit to the CDC topic; the cache-updater job runs on the engine;
 * read-repair reads the cache and writes back what it misses; the bootstrapper runs beside the job.
 * A third of the way in, the job is stopped and started again from its last checkpoint; half-way, a
 * consistent snapshot of the source is published to the bootstrap topic and applied while the
 * stream goes on; two thirds in, the store goes down for three seconds. On a networked store whose
 * server the demo started (CouchbaseMock, redis-server) the server's process is killed and started again empty instead, and re-seeded from
 * a fresh snapshot as a restarted cache is re-warmed; five sixths in it is frozen for three seconds, so
 * that calls time out rather than being refused. Then the source stops, the cache drains, and the
 * divergence checker gives its verdict.
 */
public final class Demo {

    /** What an engine brings: how to start the job, and its counters. */
    public interface Engine extends LocalEngine {
        /**
         * Starts the job on everything on the CDC topic from its committed position, with the
         * bootstrapper beside it ({@code bootstrap.enabled}); close() stops both.
         */
        AutoCloseable start(Config config, Path work) throws Exception;

        /**
         * The Kafka Connect worker a demo on a real database runs Debezium's connector on, in {@code dir}
         * on {@code bootstrap}: the engine whose job is itself a connector adds its plugin there.
         */
        default ForkedConnect startConnect(Path dir, String bootstrap) throws IOException {
            return ForkedConnect.start(dir, bootstrap);
        }
    }

    static final Duration OUTAGE = Duration.ofSeconds(3);
    private static final Duration DRAIN_LIMIT = Duration.ofSeconds(90);
    /** How long the cache's divergent keys must stay the same before the verdict is given early. */
    static final Duration SETTLED = Duration.ofSeconds(15);

    private Demo() {}

    /** The demo on {@code engine}: its broker, the job, the trouble, the verdict. Exit code 0 iff converged. */
    public static int run(DemoOptions options, Engine engine) throws Exception {
        options.run.validate();
        if (!options.lose.isZero() && options.source.equals("simulator")) {
            throw new IllegalArgumentException(
                    "--lose loses a stretch of a real database's change stream: give --source postgres or mysql");
        }
        switch (options.source) {
            case "simulator" -> {}
            case "postgres", "mysql" -> {
                return SourceDemo.run(options, engine);
            }
            default ->
                throw new picocli.CommandLine.ParameterException(
                        new picocli.CommandLine(options),
                        "--source must be simulator, postgres or mysql, got " + options.source);
        }
        Path work = options.run.workDir("nearline-demo");
        try (LocalBroker broker = engine.startBroker(work.resolve("kafka"));
                ForkedStore storeServer = options.store.startServerIfNeeded(work, options.run)) {
            return new DemoRun(options, work, broker.bootstrapServers(), engine, storeServer).call();
        }
    }

    /**
     * Publishes a consistent snapshot of the source to the bootstrap topic, its progress in
     * {@code work/<progressName>.properties}; returns it.
     */
    static SnapshotRows publishSnapshot(
            SourceOfTruth sot, Config config, String bootstrap, int partitions, Path work, String progressName)
            throws Exception {
        CacheUpdaterSettings settings = CacheUpdaterSettings.from(config);
        BootstrapSettings bootstrapSettings = BootstrapSettings.from(config);
        SnapshotRows snapshot = snapshotOf(sot);
        try (KafkaProducer<byte[], byte[]> snapshots = KafkaTopics.producer(bootstrap)) {
            new SnapshotProducer(
                            snapshots,
                            bootstrapSettings.topic(),
                            partitions,
                            bootstrapSettings.chunkRows(),
                            settings.deadLetterTopic())
                    .publish(
                            snapshot,
                            work.resolve(progressName + ".properties"),
                            KafkaTopics.endOffsets(bootstrap, settings.cdcTopic()),
                            () -> {});
        }
        return snapshot;
    }

    /** A consistent snapshot of the source as a bootstrap snapshot: the rows that exist, each at its version. */
    static SnapshotRows snapshotOf(SourceOfTruth sot) {
        Snapshot snap = sot.snapshot();
        Map<Integer, Long> hw = new TreeMap<>();
        for (int p = 0; p < snap.highWatermarks().length; p++) {
            hw.put(p, snap.highWatermarks()[p]);
        }
        List<ChangeEvent> rows = new ArrayList<>();
        for (Row row : snap.rows()) {
            if (!row.deleted()) {
                rows.add(ChangeEvent.newBuilder()
                        .setTable(SourceOfTruth.TABLE)
                        .setKey(row.key().value())
                        .setPartition(row.partition())
                        .setScn(row.version().scn().value())
                        .setOp(Op.UPSERT)
                        .setSchemaVersion(row.version().schemaVersion())
                        .setPayload(ByteBuffer.wrap(row.payload()))
                        .setCommitTimeMillis(row.commitTimeMillis())
                        .build());
            }
        }
        return new SnapshotRows("demo-" + System.currentTimeMillis(), hw, rows);
    }

    static void readRepair(ReadRepair reader, DemoOptions options, AtomicBoolean committing, InMemoryMetrics metrics) {
        Random random = new Random(options.seed.value + 3);
        while (committing.get()) {
            try {
                reader.read(Workload.key(random.nextInt(options.keys)));
            } catch (StoreUnavailableException e) {
                metrics.counter("read.failed").inc(); // the store is down: a real reader would fall back or fail
            }
            try {
                Thread.sleep(2); // about 500 reads a second
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Milliseconds each of 200 random keys is behind the source (0 when up to date). */
    static long[] sampleStaleness(SourceOfTruth sot, CacheStore store, Random random) {
        List<CacheKey> keys = new ArrayList<>(sot.keys());
        if (keys.isEmpty()) {
            return new long[0];
        }
        long now = System.currentTimeMillis();
        long[] out = new long[Math.min(200, keys.size())];
        for (int i = 0; i < out.length; i++) {
            CacheKey key = keys.get(random.nextInt(keys.size()));
            Row row = sot.read(key).orElseThrow();
            try {
                var cached = CacheView.of(store).get(key);
                boolean behind = cached.isEmpty()
                        ? !row.deleted()
                        : cached.get().version().compareTo(row.version()) < 0;
                out[i] = behind ? Math.max(0, now - row.commitTimeMillis()) : 0;
            } catch (StoreUnavailableException e) {
                return Arrays.copyOf(out, i); // cannot tell during the outage (and each call may wait for a timeout)
            }
        }
        return out;
    }

    /** Waits until the cache equals the source, or the drain limit passes; returns the last check. */
    static DivergenceChecker.Report drain(SourceOfTruth sot, CacheStore store) throws InterruptedException {
        return DivergenceChecker.checkUntilSettled(
                () -> DivergenceChecker.check(sot, CacheView.of(store), List.of(), System.currentTimeMillis()),
                System.nanoTime() + DRAIN_LIMIT.toNanos(),
                Duration.ofMillis(500),
                SETTLED);
    }

    /**
     * Writes the summary where --summary-json asks; the exit code: 0 iff the cache converged, with keys
     * checked and writes applied by the job.
     */
    static int conclude(
            DemoOptions options, Engine engine, Map<String, Object> summary, DivergenceChecker.Report report)
            throws Exception {
        if (options.run.summaryJson != null) {
            LinesFile.write(options.run.summaryJson, List.of(json(summary)));
        }
        return report.converged()
                        && report.keysChecked() > 0
                        && engine.localMetrics().count("write.applied") > 0
                ? 0
                : 1;
    }

    static long[] sortedArray(long[] values) {
        long[] copy = values.clone();
        Arrays.sort(copy);
        return copy;
    }

    static long[] sortedArray(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    static void print(Map<String, Object> s, DivergenceChecker.Report report) {
        System.out.println();
        System.out.printf(
                "demo on %s: done in %.0f s%n",
                s.get("engine"), ((Number) s.get("elapsedMillis")).longValue() / 1000.0);
        System.out.printf("  source of truth  %,d commits%n", s.get("eventsCommitted"));
        System.out.printf(
                "  cache updater    %,d events consumed: applied %,d  stale %,d  duplicate %,d  superseded %,d  retries %,d%n",
                s.get("eventsConsumed"),
                s.get("eventsApplied"),
                s.get("eventsStale"),
                s.get("eventsDuplicate"),
                s.get("eventsSuperseded"),
                s.get("retries"));
        System.out.printf(
                "  throughput       %,d events/s consumed over the whole run%n", s.get("throughputEventsPerSec"));
        System.out.printf(
                "  repairs          read-repair wrote back %,d (%,d the cache lacked), a snapshot applied %,d rows "
                        + "the cache lacked%s%n",
                s.get("readRepairs"),
                s.get("repairedByReadRepair"),
                s.get("repairedBySnapshot"),
                ((Number) s.get("repairedByReadRepair")).longValue()
                                        + ((Number) s.get("repairedBySnapshot")).longValue()
                                == 0
                        ? ": the verdict below is the job's alone"
                        : ": the verdict below includes their work (--no-repair leaves the cache to the job)");
        System.out.printf(
                "  bootstrap        %,d snapshot rows applied (%,d only refreshed their TTL), %,d partitions verified complete%n",
                s.get("bootstrapRows"), s.get("bootstrapRefreshed"), s.get("bootstrapPartitionsComplete"));
        if (!"rocksdb".equals(s.get("store"))) {
            System.out.printf(
                    "  trouble          %d job restart(s); the %s server restarted empty %d time(s) (re-seeded with %,d "
                            + "snapshot rows) and frozen %d time(s); %,d writes retried while it was away%n",
                    s.get("restarts"),
                    s.get("store"),
                    s.get("storeRestarts"),
                    s.get("reseedRows"),
                    s.get("storePauses"),
                    s.get("unavailableRetries"));
        } else {
            System.out.printf(
                    "  trouble          %d job restart(s); %,d store calls refused during the outage%n",
                    s.get("restarts"), s.get("outageRefusedCalls"));
        }
        System.out.printf(
                "  staleness        p50 %,d ms  p99 %,d ms (sampled every second while running)%n",
                s.get("stalenessP50Millis"), s.get("stalenessP99Millis"));
        printFreshness(s);
        System.out.println("  checker          " + report.summary());
        System.out.println(
                report.converged() ? "OK: the cache equals the source of truth." : "DIVERGED: see the keys above.");
    }

    static String json(Map<String, Object> summary) {
        try {
            return new ObjectMapper().writeValueAsString(summary);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The job's own freshness metric (commit to durable in the store) into a summary, beside the
     * staleness the demo samples from outside; -1 where the run's histograms are not mirrored (a Connect
     * worker's metrics are read as counters only).
     */
    static void putFreshness(Map<String, Object> summary, InMemoryMetrics job) {
        summary.put("freshnessP50Millis", job.percentile("freshness-ms", 50));
        summary.put("freshnessP99Millis", job.percentile("freshness-ms", 99));
    }

    static void printFreshness(Map<String, Object> summary) {
        if (((Number) summary.get("freshnessP99Millis")).longValue() >= 0) {
            System.out.printf(
                    "  freshness        the job's own metric, commit to durable in the store: p50 %,d ms, p99 %,d ms%n",
                    summary.get("freshnessP50Millis"), summary.get("freshnessP99Millis"));
        } else {
            System.out.println("  freshness        the job's own metric: on the worker's Prometheus endpoint");
        }
    }
}
