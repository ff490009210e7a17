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
package io.nearline.localcluster.cdcreplay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.cdcbootstrap.core.BootstrapSettings;
import io.nearline.cdcbootstrap.core.SnapshotFile;
import io.nearline.cdcbootstrap.core.SnapshotProducer;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.config.Config;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.store.CacheStore;
import io.nearline.jobs.kit.console.LinesFile;
import io.nearline.jobs.kit.console.Progress;
import io.nearline.jobs.kit.console.RateMeter;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.cdcreference.ReplayInput;
import io.nearline.localcluster.cdcreference.ReplaySummary;
import io.nearline.localcluster.cdcreference.StateDump;
import io.nearline.localcluster.kit.baselines.BlindWrites;
import io.nearline.localcluster.kit.processes.LocalBroker;
import io.nearline.localcluster.kit.runs.BrokerRestart;
import io.nearline.localcluster.kit.runs.JobProcess;
import io.nearline.localcluster.kit.stores.LocalStores;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * One run of {@code replay cdc} on a started broker, stage by stage: send the events (live or all at
 * once), publish the snapshot, run the job, read the state and dead letters back, report, decide.
 * What one stage learns the next reads from a field.
 */
final class CdcReplayRun {

    private static final String STALENESS = "staleness-ms";

    private final ReplayCdcOptions options;
    private final Path work;
    private final LocalBroker broker;
    private final CdcReplay.Engine engine;
    private final String bootstrapServers;
    private final long started = System.currentTimeMillis();
    private Config config;
    private CacheUpdaterSettings settings;
    private List<ReplayInput.Line> lines;
    private KafkaReplay.Sent sent;
    private LiveCdc live;
    private Set<CacheKey> keys;
    private long bootstrapRecords;
    private List<SnapshotProducer.Refused> refusedRows = List.of();
    private double raw = Double.NaN;
    private double steady;
    private double bootstrapSteady;
    private boolean restarted = true;
    /** The counters of the job's second process, in a crash test. */
    private Map<String, Long> restartedCounts;

    private long complete;
    private List<String> deadLetters;
    private List<String> state;
    private long throughEntries;
    private final InMemoryMetrics staleness = new InMemoryMetrics();
    private long unmatched;

    CdcReplayRun(ReplayCdcOptions options, Path work, LocalBroker broker, CdcReplay.Engine engine) {
        this.options = options;
        this.work = work;
        this.broker = broker;
        this.engine = engine;
        this.bootstrapServers = broker.bootstrapServers();
    }

    int call() throws Exception {
        engine.localMetrics().reset(); // counters are JVM-wide; this run counts from zero
        config = options.jobConfig(bootstrapServers, work);
        lines = ReplayInput.read(options.events, CacheUpdaterSettings.decoder(config));
        System.out.printf(
                "replay cdc on %s: %,d lines from %s; work dir %s%n",
                engine.name(), lines.size(), options.events, work);
        CacheUpdaterSettings.validateJob(config, BootstrapSettings.DEF);
        settings = CacheUpdaterSettings.from(config);
        KafkaTopics.createTopics(
                bootstrapServers, Map.of(settings.cdcTopic(), options.run.partitions, settings.deadLetterTopic(), 1));
        send();
        publishSnapshot();
        if (options.rawConsumeBaseline) {
            raw = KafkaTopics.rawConsumeRate(bootstrapServers, settings.cdcTopic());
        }
        runJob();
        if (live != null) {
            live.finish();
        }
        readBack();
        ReplaySummary summary = report();
        writeSummaryJson(summary);
        return verdict();
    }

    /** The change events onto the CDC topic: all at once, or live at {@code --live-rate} while the job runs. */
    @SuppressWarnings("try") // the progress line lives as long as the try block; nothing calls it
    private void send() {
        if (options.liveRate != null) {
            live = new LiveCdc(
                    new LiveCdc.Target(
                            bootstrapServers, settings.cdcTopic(), settings.deadLetterTopic(), options.run.partitions),
                    lines,
                    options.liveRate,
                    options.warmUp.toMillis(),
                    () -> engine.localMetrics().counterAskedFor(UpdateBatch.WRITTEN),
                    () -> CdcReplay.eventsDone(engine.localMetrics()));
            sent = live.expected;
        } else {
            try (Progress progress = new Progress("events sent", lines.size(), System.err)) {
                sent = KafkaReplay.send(
                        KafkaClient.plaintext(bootstrapServers),
                        settings.cdcTopic(),
                        settings.deadLetterTopic(),
                        lines,
                        progress::step);
            }
        }
        keys = new HashSet<>(sent.keys());
    }

    /** The snapshot, when one is given, onto the bootstrap topic; its keys join those the state dump reads. */
    private void publishSnapshot() {
        if (options.snapshot == null) {
            return;
        }
        SnapshotFile snapshot = SnapshotFile.open(options.snapshot);
        try (Stream<ChangeEvent> rows = snapshot.streamRows()) {
            rows.forEach(r -> ChangeEvents.validCacheKey(r).ifPresent(keys::add));
        }
        BootstrapReplay.Published published = BootstrapReplay.publish(
                new BootstrapReplay.Target(
                        bootstrapServers,
                        BootstrapSettings.from(config),
                        options.run.partitions,
                        settings.cdcTopic(),
                        settings.deadLetterTopic()),
                snapshot,
                work.resolve("snapshot-progress.properties"),
                options.snapshotCrashAfterRows);
        bootstrapRecords = published.records();
        refusedRows = published.refused();
    }

    /** The job until everything is written: in this JVM, or killed and restarted in its own (--kill-at). */
    @SuppressWarnings("try") // the progress line lives as long as the try block; nothing calls it
    private void runJob() throws Exception {
        InMemoryMetrics counters = engine.localMetrics();
        try (Progress progress = new Progress(
                        "events written", sent.events(), () -> CdcReplay.eventsDone(counters), System.err);
                RateMeter meter = new RateMeter(sent.events(), () -> CdcReplay.eventsDone(counters));
                RateMeter bootstrapMeter = new RateMeter(bootstrapRecords, () -> CdcReplay.bootstrapDone(counters))) {
            if (options.run.killAt != null && !engine.killsItsOwnProcess()) {
                restartedCounts = JobProcess.runKilledAt(
                        new JobProcess.Spec(options.command, options.store.serverArgs(), options.run, work),
                        bootstrapServers,
                        sent.events() + bootstrapRecords,
                        counters,
                        () -> CdcReplay.eventsDone(counters) + CdcReplay.bootstrapDone(counters));
            } else {
                try (BrokerRestart restart =
                        BrokerRestart.when(options.run, broker, sent.events(), () -> CdcReplay.eventsDone(counters))) {
                    if (live != null) {
                        engine.runLive(config, settings, sent.events(), live.ends, work);
                    } else {
                        engine.run(config, settings, sent.events(), bootstrapRecords, work);
                    }
                    restarted = restart == null || restart.happened();
                }
            }
            steady = meter.steadyRate();
            bootstrapSteady = bootstrapMeter.steadyRate();
        }
    }

    /** The final state of every key sent, the dead letters, and (live) each key's staleness. */
    private void readBack() throws Exception {
        // after a kill the restarted job counts the shares complete before the kill too: its count is the one
        complete = restartedCounts == null
                ? engine.localMetrics().count("bootstrap.partitions-complete")
                : restartedCounts.getOrDefault("bootstrap.partitions-complete", 0L);
        deadLetters = KafkaReplay.deadLetters(KafkaClient.plaintext(bootstrapServers), settings.deadLetterTopic());
        try (CacheStore store = LocalStores.open(config)) {
            state = StateDump.lines(store, keys);
            throughEntries = publishedThroughEntries(store);
            if (live != null) {
                unmatched = live.staleness(store, staleness.histogram(STALENESS));
            }
        }
        LinesFile.write(options.out, state);
        if (options.dlqOut != null) {
            LinesFile.write(options.dlqOut, deadLetters);
        }
    }

    /**
     * The consistent-through entries the job published in the store, counted there (the evidence that a run
     * with {@code write.consistent-through.publish-every} published); -1 where the store cannot list keys.
     */
    private long publishedThroughEntries(CacheStore store) {
        String prefix = config.get(io.nearline.cacheupdater.core.CacheUpdaterSettings.PUBLISH_THROUGH_KEY_PREFIX);
        long n = 0;
        String cursor = null;
        try {
            do {
                CacheStore.KeyPage page = store.scanKeys(prefix, cursor, 1000);
                n += page.keys().size();
                cursor = page.next();
            } while (cursor != null);
        } catch (UnsupportedOperationException e) {
            return -1;
        }
        return n;
    }

    private ReplaySummary report() {
        ReplaySummary summary = ReplaySummary.of(
                new ReplaySummary.Counts(engine.name(), lines.size(), deadLetters.size(), state.size()),
                engine.localMetrics(),
                System.currentTimeMillis() - started,
                steady,
                raw);
        summary.print(System.out);
        if (bootstrapRecords > 0) {
            System.out.printf(
                    "  bootstrap: %,d rows applied (%,d records with markers and repeats), %,d of %d partitions "
                            + "verified complete%s%n",
                    engine.localMetrics().count("bootstrap.rows"),
                    bootstrapRecords,
                    complete,
                    options.run.partitions,
                    Double.isNaN(bootstrapSteady) ? "" : String.format("; %,.0f records/s (steady)", bootstrapSteady));
        }
        if (live != null) {
            reportLive();
        }
        System.out.println(
                "  state: " + options.out + (options.dlqOut == null ? "" : "  dead letters: " + options.dlqOut));
        return summary;
    }

    private void reportLive() {
        System.out.printf(
                "  live: offered at %,.0f events/s; staleness (last event of a key sent -> written to the store) "
                        + "p50 %,d ms, p99 %,d ms, p99.9 %,d ms over %,d keys%s%n",
                live.offeredPerSec(),
                staleness.percentile(STALENESS, 50),
                staleness.percentile(STALENESS, 99),
                staleness.percentile(STALENESS, 99.9),
                staleness.values(STALENESS).length,
                unmatched == 0 ? "" : String.format(" (%,d keys not at their last version sent)", unmatched));
        if (!live.caughtUp()) {
            System.out.println("  live: the job never kept up with the stream (half a second behind or more "
                    + "at every check): staleness counted from the warm-up's end");
        } else if (!live.keptUp()) {
            System.out.println("  live: the job fell a second or more behind the stream after catching up: "
                    + "its staleness after that measures a backlog");
        }
        System.out.printf("  live: the job ended %,d ms after the last event sent%n", live.drainMillis);
    }

    private void writeSummaryJson(ReplaySummary summary) throws Exception {
        if (options.run.summaryJson == null) {
            return;
        }
        ObjectNode json = (ObjectNode) new ObjectMapper().readTree(summary.toJson());
        json.put("blindUpserts", BlindWrites.upserts()); // the evidence of a bench's blind run: 0 when ordered
        json.put("throughEntries", throughEntries); // of a run that publishes consistent-through
        if (live != null) {
            json.put("offeredEventsPerSec", Math.round(live.offeredPerSec()))
                    .put("caughtUp", live.caughtUp())
                    .put("keptUp", live.keptUp())
                    .put("drainMillis", live.drainMillis)
                    .put("stalenessP50Millis", staleness.percentile(STALENESS, 50))
                    .put("stalenessP99Millis", staleness.percentile(STALENESS, 99))
                    .put("stalenessP999Millis", staleness.percentile(STALENESS, 99.9))
                    .put("stalenessKeys", staleness.values(STALENESS).length)
                    .put("stalenessUnmatchedKeys", unmatched);
        }
        if (bootstrapRecords > 0) {
            json.put("bootstrapRows", engine.localMetrics().count("bootstrap.rows"));
            json.put("bootstrapPartitionsComplete", complete);
            if (!Double.isNaN(bootstrapSteady)) {
                json.put("bootstrapRecordsPerSec", Math.round(bootstrapSteady));
            }
        }
        LinesFile.write(options.run.summaryJson, List.of(json.toString()));
    }

    /** Exit 1 when nothing was tested or the bootstrap is not verified complete: never "OK" with rows missing. */
    private int verdict() {
        if (!restarted) {
            System.out.println(
                    "replay cdc: the job had finished before the broker restart was due: nothing was tested");
            return 1;
        }
        if (bootstrapRecords > 0 && (complete < options.run.partitions || !refusedRows.isEmpty())) {
            long rejected = engine.localMetrics().count("bootstrap.invalid");
            System.out.printf(
                    "replay cdc: the bootstrap did not verify complete (%d of %d partitions):%s%s%n",
                    complete,
                    options.run.partitions,
                    refusedRows.isEmpty() ? "" : " too large for the topic: " + refusedRows + ";",
                    rejected == 0 ? "" : " " + rejected + " rows dead-lettered by the job (see the dead letters)");
            return 1;
        }
        return 0;
    }
}
