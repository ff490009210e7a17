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
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cdcbootstrap.core.BootstrapSettings;
import io.nearline.cdcbootstrap.core.SnapshotRows;
import io.nearline.common.config.Config;
import io.nearline.common.events.ChangeEventCodec;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.schema.InMemorySchemaRegistry;
import io.nearline.common.store.CacheStore;
import io.nearline.jobs.checker.DivergenceChecker;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.kit.faults.OutageStore;
import io.nearline.localcluster.kit.processes.ForkedStore;
import io.nearline.localcluster.kit.stores.LocalStores;
import io.nearline.localcluster.sourcesimulator.ReadRepair;
import io.nearline.localcluster.sourcesimulator.SourceOfTruth;
import io.nearline.localcluster.sourcesimulator.Workload;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One demo on a started broker: the source commits and read-repair reads while the job runs; once a
 * second the trouble due is injected and staleness sampled; then the drain, the checker, the summary.
 */
final class DemoRun {

    private final DemoOptions options;
    private final Path work;
    private final String bootstrap;
    private final Demo.Engine engine;
    private final ForkedStore storeServer; // null: embedded, or named by the user
    private final long started = System.currentTimeMillis();
    private final AtomicLong published = new AtomicLong();
    private final InMemoryMetrics readMetrics = new InMemoryMetrics();
    private final List<Long> staleness = new ArrayList<>();
    private Config config;
    private CacheUpdaterSettings settings;
    private SourceOfTruth sot;
    private CacheStore store;
    private AutoCloseable job;
    // the trouble injected so far
    private boolean restarted;
    private boolean outage;
    private boolean bootstrapped;
    private int storeRestarts;
    private int storePauses;
    private long reseedRows;

    DemoRun(DemoOptions options, Path work, String bootstrap, Demo.Engine engine, ForkedStore storeServer) {
        this.options = options;
        this.work = work;
        this.bootstrap = bootstrap;
        this.engine = engine;
        this.storeServer = storeServer;
    }

    /** Exit code 0 iff the cache converged on the source, with keys checked and writes applied. */
    int call() throws Exception {
        engine.localMetrics().reset();
        long commits = configure();
        options.store.probe(config);
        try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(bootstrap);
                CacheStore opened = LocalStores.open(config)) {
            store = opened;
            sot = new SourceOfTruth(8, new InMemorySchemaRegistry(), Clock.systemUTC(), event -> {
                producer.send(new ProducerRecord<>(
                        settings.cdcTopic(),
                        event.getKey().getBytes(StandardCharsets.UTF_8),
                        ChangeEventCodec.encode(event)));
                published.incrementAndGet();
            });
            ReadRepair reader = new ReadRepair(
                    sot,
                    store,
                    new ScnOrderedWriter(store, WriterSettings.from(config), readMetrics),
                    Duration.ofSeconds(5),
                    Clock.systemUTC(),
                    readMetrics);
            job = engine.start(config, work);
            AtomicBoolean committing = new AtomicBoolean(true);
            Thread source = new Thread(
                    () -> {
                        new Workload(options.keys, commits, 0.8, 0.1, 0.5, options.rate)
                                .run(sot, new Random(options.seed.value), options.duration.plusSeconds(30));
                        committing.set(false);
                    },
                    "source-of-truth");
            Thread readers = new Thread(() -> Demo.readRepair(reader, options, committing, readMetrics), "read-repair");
            source.start();
            if (!options.noRepair) {
                readers.start();
            }
            Random sample = new Random(options.seed.value + 7);
            // a slow machine may finish committing before the last trouble is due: it is still injected
            while (committing.get() || troublePending()) {
                Thread.sleep(1000);
                long t = System.currentTimeMillis() - started;
                if (!options.noTrouble) {
                    injectTroubleDue(t);
                }
                sampleStaleness(t, sample);
            }
            source.join();
            readers.join();
            producer.flush();
            return finish();
        }
    }

    /** The job's settings and topics; returns how many commits the source makes. */
    private long configure() {
        Map<String, String> choices = new LinkedHashMap<>();
        choices.put("kafka.bootstrap-servers", bootstrap);
        choices.put("cdc.consumer-group", "nearline-demo");
        choices.put("bootstrap.enabled", "true");
        choices.put("write.outage.max-pause", "1s");
        options.store.putSettings(choices, work, options.run);
        if (!options.store.isNetworked()) {
            choices.put("outage.enabled", "true"); // the embedded store behind the demo's outage switch
        }
        config = options.run.jobConfig(choices);
        CacheUpdaterSettings.validateJob(config, BootstrapSettings.DEF);
        settings = CacheUpdaterSettings.from(config);
        BootstrapSettings bootstrapSettings = BootstrapSettings.from(config);
        int partitions = options.run.partitions;
        KafkaTopics.createTopics(
                bootstrap,
                Map.of(
                        settings.cdcTopic(), partitions,
                        settings.deadLetterTopic(), 1,
                        bootstrapSettings.topic(), partitions));
        long commits = options.duration.toSeconds() * options.rate;
        System.out.printf(
                "demo on %s: %,d keys, %,d commits/s for %s (%,d commits), work dir %s%n",
                engine.name(), options.keys, options.rate, options.duration, commits, work);
        return commits;
    }

    /**
     * At most one piece of trouble a second, each once, at its point of the run: the job restarted
     * (a third in), a snapshot published (half-way), the store down (two thirds in; a networked store's
     * server killed and re-seeded instead), that server frozen (five sixths in).
     */
    private void injectTroubleDue(long t) throws Exception {
        long third = options.duration.toMillis() / 3;
        if (!restarted && t >= third) {
            System.out.println("  >> injecting: the job stops and starts again from its last checkpoint");
            job.close();
            job = engine.start(config, work);
            restarted = true;
        } else if (!bootstrapped && !options.noRepair && t >= options.duration.toMillis() / 2) {
            SnapshotRows snapshot = publishSnapshot("snapshot-progress");
            System.out.printf(
                    "  >> bootstrap: a snapshot of the source (%,d rows, high-watermarks %s) published while it commits%n",
                    snapshot.rows().size(), snapshot.highWatermarks());
            bootstrapped = true;
        } else if (!outage && t >= 2 * third) {
            outage = true;
            storeDown();
        } else if (storeServer != null && storePauses == 0 && t >= 5 * third / 2) {
            System.out.println("  >> injecting: " + options.store.store + " server frozen (SIGSTOP) for "
                    + Demo.OUTAGE.toSeconds() + " s");
            storeServer.pause();
            try {
                Thread.sleep(Demo.OUTAGE.toMillis());
            } finally {
                storeServer.resume();
            }
            storePauses++;
        }
    }

    private boolean troublePending() {
        return !options.noTrouble
                && (!restarted
                        || (!bootstrapped && !options.noRepair)
                        || !outage
                        || (storeServer != null && storePauses == 0));
    }

    /** The embedded store refuses calls for a while; a networked store's server is killed, started empty and re-seeded. */
    private void storeDown() throws Exception {
        if (!options.store.isNetworked()) {
            System.out.println("  >> injecting: the cache store is down for " + Demo.OUTAGE.toSeconds() + " s");
            OutageStore.down(Demo.OUTAGE);
        } else if (storeServer == null) {
            System.out.println("  >> no store faults: the " + options.store.store + " server was named, not started, "
                    + "by the demo");
        } else if (options.noRepair) {
            System.out.println("  >> no store restart: with --no-repair nothing would re-seed an emptied "
                    + options.store.store + " server");
        } else {
            System.out.println(
                    "  >> injecting: the " + options.store.store + " server killed and started again, empty");
            storeServer.restart();
            storeRestarts++;
            SnapshotRows snapshot = publishSnapshot("reseed-progress");
            reseedRows += snapshot.rows().size();
            System.out.printf(
                    "  >> re-seeding the empty cache: a snapshot of the source (%,d rows) published%n",
                    snapshot.rows().size());
        }
    }

    private SnapshotRows publishSnapshot(String progressName) throws Exception {
        return Demo.publishSnapshot(sot, config, bootstrap, options.run.partitions, work, progressName);
    }

    private void sampleStaleness(long t, Random sample) {
        long[] lag = Demo.sampleStaleness(sot, store, sample);
        for (long l : lag) {
            staleness.add(l);
        }
        System.out.printf(
                "  t=%3ds committed %,d  consumed %,d  applied %,d  read-repaired %,d  stale p99 %,d ms%n",
                t / 1000,
                published.get(),
                engine.localMetrics().count("events.received"),
                engine.localMetrics().count("write.applied"),
                readMetrics.count("read.repaired"),
                DivergenceChecker.Report.percentile(Demo.sortedArray(lag), 99));
    }

    /** The drain, the checker's verdict and the summary; the exit code. */
    private int finish() throws Exception {
        System.out.println("  source stopped; draining the cache...");
        DivergenceChecker.Report report = Demo.drain(sot, store);
        job.close();
        Map<String, Object> summary = summary(report);
        Demo.print(summary, report);
        return Demo.conclude(options, engine, summary, report);
    }

    private Map<String, Object> summary(DivergenceChecker.Report report) throws JsonProcessingException {
        InMemoryMetrics counters = engine.localMetrics(); // the job's
        long[] lag = Demo.sortedArray(staleness);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("engine", engine.name());
        summary.put("store", options.store.store);
        summary.put("eventsCommitted", published.get());
        summary.put("eventsConsumed", counters.count("events.received"));
        summary.put("eventsApplied", counters.count("write.applied"));
        summary.put("eventsStale", counters.count("write.stale"));
        summary.put("eventsDuplicate", counters.count("write.duplicate"));
        summary.put("eventsSuperseded", counters.count("write.superseded"));
        summary.put("retries", counters.count("write.retries.conflict") + counters.count("write.retries.unavailable"));
        long runningMillis = Math.max(1, System.currentTimeMillis() - started);
        summary.put("throughputEventsPerSec", counters.count("events.received") * 1000 / runningMillis);
        summary.put("readRepairs", readMetrics.count("read.repaired"));
        // what the cache holds because something other than the job wrote it: the verdict is the job's only where both
        // are 0
        summary.put("repairedByReadRepair", readMetrics.count("write.applied"));
        summary.put("repairedBySnapshot", counters.count(UpdateBatch.BOOTSTRAP_APPLIED));
        summary.put("bootstrapRows", counters.count("bootstrap.rows"));
        summary.put("bootstrapRefreshed", counters.count("write.refreshed"));
        summary.put("bootstrapPartitionsComplete", counters.count("bootstrap.partitions-complete"));
        summary.put("restarts", restarted ? 1 : 0);
        summary.put("outageRefusedCalls", OutageStore.refusedCalls());
        summary.put("storeRestarts", storeRestarts);
        summary.put("storePauses", storePauses);
        summary.put("reseedRows", reseedRows);
        summary.put("unavailableRetries", counters.count("write.retries.unavailable"));
        summary.put("stalenessP50Millis", DivergenceChecker.Report.percentile(lag, 50));
        summary.put("stalenessP99Millis", DivergenceChecker.Report.percentile(lag, 99));
        Demo.putFreshness(summary, counters);
        summary.put("keysChecked", report.keysChecked());
        summary.put("divergentKeys", report.divergent().size());
        summary.put("elapsedMillis", System.currentTimeMillis() - started);
        return summary;
    }
}
