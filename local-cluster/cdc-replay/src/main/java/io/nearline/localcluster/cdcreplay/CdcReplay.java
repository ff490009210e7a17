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

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.cdcbootstrap.core.BootstrapSettings;
import io.nearline.common.config.Config;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.localcluster.kit.processes.ForkedStore;
import io.nearline.localcluster.kit.processes.LocalBroker;
import io.nearline.localcluster.kit.processes.LocalEngine;
import io.nearline.localcluster.kit.runs.JobProcess;
import java.nio.file.Path;
import java.util.Map;

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

        /**
         * Whether {@link #run} does {@code --kill-at} itself: the engine's job runs in processes it
         * started (a Kafka Connect worker), which it kills and starts again. Otherwise the replay runs
         * the job in a process of its own and kills that ({@link JobProcess}).
         */
        default boolean killsItsOwnProcess() {
            return false;
        }
    }

    /** A count the job's process of a crash test does not know: it was sent by the replay's process. */
    public static final long UNCOUNTED = -1;

    private CdcReplay() {}

    /** The replay on {@code engine}: options checked, its broker (and cache) started, the run, the summary. */
    @SuppressWarnings("try") // the store's server lives as long as the try block; nothing calls it
    public static int run(ReplayCdcOptions options, Engine engine) throws Exception {
        options.run.validate();
        Path work = options.run.checkedWorkDir("nearline-replay", dir -> validate(options, dir));
        if (options.run.jobProcess != null) {
            return runJobOnly(options, work, engine);
        }
        try (ForkedStore storeServer = options.store.startServerIfNeeded(work, options.run)) {
            options.store.probe(
                    options.jobConfig("127.0.0.1:9092", work)); // before the broker: a bad store is one line
            try (LocalBroker broker = engine.startBroker(work.resolve("kafka"))) {
                return run(options, work, broker, engine);
            }
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

    private static int run(ReplayCdcOptions options, Path work, LocalBroker broker, Engine engine) throws Exception {
        return new CdcReplayRun(options, work, broker, engine).call();
    }
}
