package io.nearline.localcluster.replay.cdc;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.bootstrap.BootstrapSettings;
import io.nearline.bootstrap.SnapshotFile;
import io.nearline.bootstrap.SnapshotProducer;
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.cacheupdater.reference.ReplayInput;
import io.nearline.cacheupdater.reference.ReplaySummary;
import io.nearline.cacheupdater.reference.StateDump;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.config.Config;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import io.nearline.localcluster.console.Progress;
import io.nearline.localcluster.console.RateMeter;
import io.nearline.localcluster.kit.BrokerRestart;
import io.nearline.localcluster.kit.ForkedCouchbase;
import io.nearline.localcluster.kit.JobProcess;
import io.nearline.localcluster.kit.KafkaTopics;
import io.nearline.localcluster.kit.LocalBroker;
import io.nearline.localcluster.kit.LocalEngine;
import io.nearline.localcluster.kit.ReplayOutput;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The flow of {@code replay cdc}, the same on every engine: read the lines, create the topics, send
 * the events (and publish the snapshot, when one is given), optionally time a raw consumer, let the
 * engine run the real job (and the bootstrapper) until everything is consumed, then write the final
 * state, the dead letters and the summary.
 */
public final class CdcReplay {

    /** What an engine brings to a replay. */
    public interface Engine extends LocalEngine {
        /**
         * Runs the job on everything on the CDC topic (and the bootstrapper on the bootstrap topic when
         * {@code bootstrapRecords} is not 0); returns once every event and record was consumed and
         * written. {@link #UNCOUNTED} counts: the job's process of a crash test, which reads the topics
         * to where they end when it starts.
         */
        void run(Config config, CacheUpdaterSettings settings, long events, long bootstrapRecords, Path work)
                throws Exception;

        /**
         * A live run: the job started while its {@code events} are still being sent, which end at
         * {@code ends} (partition → offset of the CDC topic); returns once all are written. By default
         * {@link #run}, for an engine that runs until it has written a count.
         */
        default void runLive(
                Config config, CacheUpdaterSettings settings, long events, Map<Integer, Long> ends, Path work)
                throws Exception {
            run(config, settings, events, 0, work);
        }
    }

    /** A count the job's process of a crash test does not know: it was sent by the replay's process. */
    public static final long UNCOUNTED = -1;

    private CdcReplay() {}

    private static final String STALENESS = "staleness-ms";

    /** The replay on {@code engine}: options checked, its broker (and cache) started, the run, the summary. */
    @SuppressWarnings("try") // the mock lives as long as the try block; nothing calls it
    public static int run(ReplayCdcOptions options, Engine engine) throws Exception {
        options.run.validate();
        Path work = options.run.checkedWorkDir("nearline-replay", dir -> validate(options, dir));
        if (options.run.jobProcess != null) {
            return runJobOnly(options, work, engine);
        }
        try (LocalBroker broker = engine.startBroker(work.resolve("kafka"));
                ForkedCouchbase couchbase = options.store.startsCouchbaseMock(options.run)
                        ? options.store.startCouchbaseMock(work)
                        : null) {
            return run(options, work, broker, engine);
        }
    }

    /** The job's own process in a crash test: the job alone, against the replay's broker, reporting progress. */
    @SuppressWarnings("try") // the reporter lives as long as the try block; nothing calls it
    private static int runJobOnly(ReplayCdcOptions options, Path work, Engine engine) throws Exception {
        Config config = options.jobConfig(options.run.jobProcess, work);
        CacheUpdaterSettings settings = CacheUpdaterSettings.from(config);
        try (AutoCloseable progress = JobProcess.reportCounters(engine.localMetrics())) {
            engine.run(config, settings, UNCOUNTED, options.snapshot == null ? 0 : UNCOUNTED, work);
        }
        return 0;
    }

    /** Events of the CDC topic done: written, rejected at intake, or skipped (Debezium's tombstones). */
    public static long eventsDone(InMemoryMetrics metrics) {
        return metrics.count(UpdateBatch.WRITTEN) + metrics.count("events.invalid") + metrics.count("events.skipped");
    }

    /** Bootstrap records done: rows written, markers tracked, invalid records rejected. */
    public static long bootstrapDone(InMemoryMetrics metrics) {
        return metrics.count(UpdateBatch.BOOTSTRAP_WRITTEN)
                + metrics.count("bootstrap.markers")
                + metrics.count("bootstrap.invalid");
    }

    /** Checks the job configuration before anything starts (the brokers' address is filled in later). */
    private static void validate(ReplayCdcOptions options, Path work) {
        if (options.liveRate != null
                && (options.liveRate < 1
                        || options.snapshot != null
                        || options.rawConsumeBaseline
                        || options.run.killAt != null
                        || options.run.brokerRestartAt != null)) {
            throw new IllegalArgumentException("--live-rate takes a rate of at least 1 and cannot be combined with "
                    + "--snapshot, --raw-consume-baseline, --kill-at or --broker-restart-at");
        }
        CacheUpdaterSettings.validateJob(options.jobConfig("127.0.0.1:9092", work), BootstrapSettings.DEF);
        if (options.snapshot != null) {
            BootstrapSettings.from(options.jobConfig("127.0.0.1:9092", work)); // period < ttl, named if not
        }
    }

    @SuppressWarnings("try") // the progress line lives as long as the try block; nothing calls it
    private static int run(ReplayCdcOptions options, Path work, LocalBroker broker, Engine engine) throws Exception {
        String bootstrapServers = broker.bootstrapServers();
        long started = System.currentTimeMillis();
        engine.localMetrics().reset(); // counters are JVM-wide; this run counts from zero
        Config config = options.jobConfig(bootstrapServers, work);
        List<ReplayInput.Line> lines = ReplayInput.read(options.events, CacheUpdaterSettings.decoder(config));
        System.out.printf(
                "replay cdc on %s: %,d lines from %s; work dir %s%n",
                engine.name(), lines.size(), options.events, work);

        CacheUpdaterSettings.validateJob(config, BootstrapSettings.DEF);
        CacheUpdaterSettings settings = CacheUpdaterSettings.from(config);
        KafkaTopics.createTopics(
                bootstrapServers, Map.of(settings.cdcTopic(), options.run.partitions, settings.deadLetterTopic(), 1));
        KafkaReplay.Sent sent;
        LiveCdc live = null;
        if (options.liveRate != null) {
            live = new LiveCdc(
                    bootstrapServers,
                    settings.cdcTopic(),
                    settings.deadLetterTopic(),
                    lines,
                    options.liveRate,
                    options.run.partitions,
                    options.warmUp.toMillis(),
                    () -> eventsDone(engine.localMetrics()));
            sent = live.expected;
        } else {
            try (Progress progress = new Progress("events sent", lines.size(), System.err)) {
                sent = KafkaReplay.send(
                        bootstrapServers, settings.cdcTopic(), settings.deadLetterTopic(), lines, progress::step);
            }
        }
        Set<CacheKey> keys = new HashSet<>(sent.keys());
        long bootstrapRecords = 0;
        List<SnapshotProducer.Refused> refusedRows = List.of();
        if (options.snapshot != null) {
            SnapshotFile snapshot = SnapshotFile.open(options.snapshot);
            try (Stream<ChangeEvent> rows = snapshot.streamRows()) { // the state dump reads these keys too
                rows.forEach(r -> ChangeEvents.validCacheKey(r).ifPresent(keys::add));
            }
            BootstrapReplay.Published published = BootstrapReplay.publish(
                    bootstrapServers,
                    BootstrapSettings.from(config),
                    options.run.partitions,
                    settings.cdcTopic(),
                    settings.deadLetterTopic(),
                    snapshot,
                    work.resolve("snapshot-progress.properties"),
                    options.snapshotCrashAfterRows);
            bootstrapRecords = published.records();
            refusedRows = published.refused();
        }
        double raw = options.rawConsumeBaseline
                ? KafkaTopics.rawConsumeRate(bootstrapServers, settings.cdcTopic())
                : Double.NaN;

        double steady;
        double bootstrapSteady;
        boolean restarted = true;
        Map<String, Long> restartedCounts = null; // the counters of the job's second process, in a crash test
        try (Progress progress = new Progress(
                        "events written", sent.events(), () -> eventsDone(engine.localMetrics()), System.err);
                RateMeter meter = new RateMeter(sent.events(), () -> eventsDone(engine.localMetrics()));
                RateMeter bootstrapMeter =
                        new RateMeter(bootstrapRecords, () -> bootstrapDone(engine.localMetrics()))) {
            if (options.run.killAt != null) {
                InMemoryMetrics counters = engine.localMetrics();
                restartedCounts = JobProcess.runKilledAt(
                        options.command,
                        options.store.couchbaseArgs(),
                        options.run,
                        work,
                        bootstrapServers,
                        sent.events() + bootstrapRecords,
                        counters,
                        () -> eventsDone(counters) + bootstrapDone(counters));
            } else {
                try (BrokerRestart restart = BrokerRestart.when(
                        options.run, broker, sent.events(), () -> eventsDone(engine.localMetrics()))) {
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
        if (live != null) {
            live.finish();
        }

        // after a kill the restarted job counts the shares complete before the kill too: its count is the one
        long complete = restartedCounts == null
                ? engine.localMetrics().count("bootstrap.partitions-complete")
                : restartedCounts.getOrDefault("bootstrap.partitions-complete", 0L);
        List<String> deadLetters = KafkaReplay.deadLetters(bootstrapServers, settings.deadLetterTopic());
        List<String> state;
        InMemoryMetrics staleness = new InMemoryMetrics();
        long unmatched = 0;
        try (CacheStore store = CacheStores.open(config)) {
            state = StateDump.lines(store, keys);
            if (live != null) {
                unmatched = live.staleness(store, staleness.histogram(STALENESS));
            }
        }
        ReplayOutput.write(options.out, state);
        if (options.dlqOut != null) {
            ReplayOutput.write(options.dlqOut, deadLetters);
        }
        ReplaySummary summary = ReplaySummary.of(
                engine.name(),
                lines.size(),
                deadLetters.size(),
                state.size(),
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
            }
        }
        System.out.println(
                "  state: " + options.out + (options.dlqOut == null ? "" : "  dead letters: " + options.dlqOut));
        if (options.run.summaryJson != null) {
            ObjectNode json = (ObjectNode) new ObjectMapper().readTree(summary.toJson());
            if (live != null) {
                json.put("offeredEventsPerSec", Math.round(live.offeredPerSec()))
                        .put("caughtUp", live.caughtUp())
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
            ReplayOutput.write(options.run.summaryJson, List.of(json.toString()));
        }
        if (!restarted) {
            System.out.println(
                    "replay cdc: the job had finished before the broker restart was due: nothing was tested");
            return 1;
        }
        if (bootstrapRecords > 0 && (complete < options.run.partitions || !refusedRows.isEmpty())) {
            // never "OK" with rows missing: name what is known of them
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
