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
package io.nearline.localcluster.joinreplay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.common.config.Config;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.feedtrackingjoin.core.JoinMetrics;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.jobs.kit.console.CpuUse;
import io.nearline.jobs.kit.console.LinesFile;
import io.nearline.jobs.kit.console.Progress;
import io.nearline.jobs.kit.console.RateMeter;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.localcluster.joinreference.JoinOutputs;
import io.nearline.localcluster.kit.processes.LocalBroker;
import io.nearline.localcluster.kit.processes.LocalEngine;
import io.nearline.localcluster.kit.runs.BrokerRestart;
import io.nearline.localcluster.kit.runs.CatchUp;
import io.nearline.localcluster.kit.runs.JobProcess;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The flow of {@code replay join}, the same on every engine: read the two files, create the topics,
 * send the events, let the engine run the real job over everything sent (its inputs bounded at
 * their current end, so every pending request is flushed), then write the outputs and a summary.
 */
public final class JoinReplay {

    /** Metric names both engines report (documented in feed-tracking-join/README.md). */

    /** What an engine brings to a replay. */
    public interface Engine extends LocalEngine {
        /**
         * Runs the job over its input topics up to {@code ends} (topic → partition → offset; the job's
         * local state under {@code work}) and returns once every output is written.
         */
        void run(Config config, JoinSettings settings, int partitions, Path work, Map<String, Map<Integer, Long>> ends)
                throws Exception;
    }

    private JoinReplay() {}

    /** The replay on {@code engine}: options checked, its broker started, the run, the summary. */
    public static int run(ReplayJoinOptions options, Engine engine) throws Exception {
        validate(options);
        Path work = options.run.workDir("nearline-replay-join");
        if (options.run.jobProcess != null) {
            return runJobOnly(options, work, engine);
        }
        try (LocalBroker broker = engine.startBroker(work.resolve("kafka"))) {
            return run(options, work, broker, engine);
        }
    }

    /** Checks the options and the job configuration before anything starts. */
    private static void validate(ReplayJoinOptions options) {
        for (Path file : List.of(options.index, options.broker)) {
            if (!Files.isReadable(file)) {
                throw new IllegalArgumentException("cannot read " + file);
            }
        }
        options.run.validate();
        if (options.live && (options.run.killAt != null || options.run.brokerRestartAt != null)) {
            throw new IllegalArgumentException("--live cannot be combined with --kill-at or --broker-restart-at");
        }
        JoinSettings.validateJob(options.jobConfig("127.0.0.1:9092"));
    }

    private static int run(ReplayJoinOptions options, Path work, LocalBroker broker, Engine engine) throws Exception {
        return new Run(options, work, broker, engine).call();
    }

    /** One replay on a started broker, stage by stage: send, run the job, read the outputs back, report. */
    private static final class Run {
        private final ReplayJoinOptions options;
        private final Path work;
        private final LocalBroker broker;
        private final Engine engine;
        private final String bootstrapServers;
        private final KafkaClient kafka;
        private final InMemoryMetrics metrics;
        private final long started = System.currentTimeMillis();
        private Config config;
        private JoinSettings settings;
        private long sent;
        private Map<String, Map<Integer, Long>> ends;
        private LiveTraffic live;
        private double steady;
        private CpuUse.Cores cores;
        private boolean restarted = true;

        Run(ReplayJoinOptions options, Path work, LocalBroker broker, Engine engine) {
            this.options = options;
            this.work = work;
            this.broker = broker;
            this.engine = engine;
            this.bootstrapServers = broker.bootstrapServers();
            this.kafka = KafkaClient.plaintext(bootstrapServers);
            this.metrics = engine.localMetrics();
        }

        int call() throws Exception {
            metrics.reset(); // counters are JVM-wide; this run counts from zero
            JoinInputs inputs = JoinInputs.read(options.index, options.broker);
            System.out.printf(
                    "replay join on %s: %,d fragments, %,d broker events, %,d bad lines%n",
                    engine.name(),
                    inputs.fragments().size(),
                    inputs.brokers().size(),
                    inputs.badLines().size());
            config = options.jobConfig(bootstrapServers);
            JoinSettings.validateJob(config);
            settings = JoinSettings.from(config);
            JoinKafka.createTopics(kafka, settings, options.run.partitions);
            send(inputs);
            runJob();
            if (live != null) {
                live.finish();
            }
            report();
            if (!restarted) {
                System.out.println(
                        "replay join: the job had finished before the broker restart was due: nothing was tested");
                return 1;
            }
            return 0;
        }

        /** The inputs onto their topics: all at once, or live (bad lines first) while the job runs. */
        @SuppressWarnings("try") // the progress line lives as long as the try block; nothing calls it
        private void send(JoinInputs inputs) {
            int partitions = options.run.partitions;
            if (options.live) {
                JoinKafka.send(kafka, settings, partitions, inputs.badLinesOnly(), () -> {});
                sent = inputs.events();
                ends = JoinKafka.endsAfter(settings, partitions, inputs);
                live = new LiveTraffic(kafka, settings, partitions, inputs, metrics, options.warmUp.toMillis());
            } else {
                try (Progress progress = new Progress(
                        "events sent", inputs.events() + inputs.badLines().size(), System.err)) {
                    sent = JoinKafka.send(kafka, settings, partitions, inputs, progress::step);
                }
                ends = JoinKafka.currentEnds(kafka, settings);
            }
        }

        /** The job over everything sent: in this JVM, or killed and restarted in its own (--kill-at). */
        @SuppressWarnings("try") // the progress line lives as long as the try block; nothing calls it
        private void runJob() throws Exception {
            // the job's threads are in this JVM unless it runs in a process of its own (--kill-at)
            CpuUse cpu = options.run.killAt == null
                    ? CpuUse.beforeJob(broker.ownProcess().orElse(null))
                    : null;
            try (Progress progress =
                            new Progress("events joined", sent, () -> metrics.count(JoinMetrics.RECEIVED), System.err);
                    RateMeter meter = new RateMeter(sent, () -> metrics.count(JoinMetrics.RECEIVED), cpu)) {
                if (options.run.killAt != null) {
                    JobProcess.runKilledAt(
                            new JobProcess.Spec(options.command, List.of(), options.run, work),
                            bootstrapServers,
                            sent,
                            metrics,
                            () -> metrics.count(JoinMetrics.RECEIVED));
                } else {
                    try (BrokerRestart restart =
                            BrokerRestart.when(options.run, broker, sent, () -> metrics.count(JoinMetrics.RECEIVED))) {
                        engine.run(config, settings, options.run.partitions, work, ends);
                        restarted = restart == null || restart.happened();
                    }
                }
                steady = meter.steadyRate();
                cores = meter.steadyCores();
            }
        }

        /** The outputs and dead letters read back and written sorted, and the summary. */
        private void report() throws Exception {
            JoinOutputs outputs = JoinKafka.outputs(kafka, settings);
            List<String> deadLetters = JoinKafka.deadLetters(kafka, settings);
            LinesFile.write(options.outDir.resolve("joined.jsonl"), outputs.joined());
            LinesFile.write(options.outDir.resolve("orphans.jsonl"), outputs.orphans());
            LinesFile.write(options.outDir.resolve("late.jsonl"), outputs.late());
            LinesFile.write(options.outDir.resolve("dead-letters.jsonl"), deadLetters);
            Summary summary = new Summary(
                    engine.name(),
                    sent,
                    outputs.joined().size(),
                    outputs.complete(),
                    outputs.orphans().size(),
                    outputs.late().size(),
                    metrics.count(JoinMetrics.DUPLICATES),
                    deadLetters.size(),
                    System.currentTimeMillis() - started,
                    steady,
                    metrics.percentile(JoinMetrics.LATENCY, 50),
                    metrics.percentile(JoinMetrics.LATENCY, 99),
                    metrics.percentile(JoinMetrics.LATENCY, 99.9),
                    live == null ? Double.NaN : live.offeredPerSec(),
                    live == null ? -1 : live.drainMillis,
                    live != null && live.caughtUp(),
                    live != null && live.keptUp(),
                    cores);
            summary.print(System.out);
            System.out.println("  outputs: " + options.outDir);
            if (options.run.summaryJson != null) {
                LinesFile.write(options.run.summaryJson, List.of(summary.toJson()));
            }
        }
    }

    /** The job's own process in a crash test: the job alone, against the replay's broker, reporting progress. */
    @SuppressWarnings("try") // the reporter lives as long as the try block; nothing calls it
    private static int runJobOnly(ReplayJoinOptions options, Path work, Engine engine) throws Exception {
        Config config = options.jobConfig(options.run.jobProcess);
        JoinSettings settings = JoinSettings.from(config);
        try (AutoCloseable progress = JobProcess.reportCounters(engine.localMetrics())) {
            engine.run(
                    config,
                    settings,
                    options.run.partitions,
                    work,
                    JoinKafka.currentEnds(KafkaClient.plaintext(options.run.jobProcess), settings));
        }
        return 0;
    }

    /**
     * The traffic of {@code --live}, sent on a thread of its own while the job runs. It starts once the
     * job has opened its inputs (it asked for its {@code events.received} counter), so that the warm-up
     * is spent warming up and not on a backlog built while the engine deployed the job. The join
     * latency recorded in the warm-up, and until the job has caught up with the traffic after it, is
     * left out.
     */
    private static final class LiveTraffic {
        private final Thread thread;
        private final AtomicLong sent = new AtomicLong();
        private volatile long lastSentAt;
        private volatile CatchUp catchUp;
        private volatile Exception failed;
        private long drainMillis = -1;

        LiveTraffic(
                KafkaClient kafka,
                JoinSettings settings,
                int partitions,
                JoinInputs inputs,
                InMemoryMetrics metrics,
                long warmUpMillis) {
            thread = new Thread(
                    () -> {
                        try {
                            catchUp = CatchUp.whenJobOpened(
                                    () -> metrics.counterAskedFor(JoinMetrics.RECEIVED),
                                    warmUpMillis,
                                    () -> metrics.count(JoinMetrics.RECEIVED));
                            JoinKafka.sendLive(
                                    kafka, settings, partitions, inputs, catchUp.startsAt(), onEach(metrics));
                        } catch (Exception e) {
                            failed = e;
                        }
                    },
                    "live-traffic");
            thread.setDaemon(true);
            thread.start();
        }

        private Runnable onEach(InMemoryMetrics metrics) {
            boolean[] warm = {false};
            return () -> {
                lastSentAt = System.currentTimeMillis();
                if (!warm[0] && catchUp.warmedUp(lastSentAt)) {
                    warm[0] = true;
                    metrics.clear(JoinMetrics.LATENCY); // the start-up left out, even if the job never keeps up
                }
                if (catchUp.sent(sent.incrementAndGet(), lastSentAt)) {
                    metrics.clear(JoinMetrics.LATENCY); // what follows is the steady state
                }
            };
        }

        /** The job has ended: the traffic must have been sent in full. */
        void finish() throws Exception {
            drainMillis = System.currentTimeMillis() - lastSentAt;
            thread.join();
            if (failed != null) {
                throw failed;
            }
        }

        boolean caughtUp() {
            return catchUp != null && catchUp.caughtUp();
        }

        /** Caught up, and within a second of the traffic from then to its end. */
        boolean keptUp() {
            return catchUp != null && catchUp.keptUp();
        }

        double offeredPerSec() {
            return catchUp == null ? 0 : sent.get() * 1000.0 / Math.max(1, lastSentAt - catchUp.startsAt());
        }
    }

    /**
     * What a join replay did. Latencies are processing time from the arrival of the last event a
     * complete join needed to its emission; -1 when there was none. A {@code --live} run also has the
     * rate the traffic was offered at and the time from its last event to the job's end (NaN and -1
     * otherwise).
     */
    public record Summary(
            String engine,
            long events,
            long joined,
            long complete,
            long orphans,
            long late,
            long duplicates,
            long deadLettered,
            long elapsedMillis,
            double steadyEventsPerSec,
            long latencyP50Millis,
            long latencyP99Millis,
            long latencyP999Millis,
            double offeredEventsPerSec,
            long drainMillis,
            boolean caughtUp,
            boolean keptUp,
            CpuUse.Cores cores) {

        void print(PrintStream out) {
            out.printf("replay join on %s: %,d events, %.1f s in all%n", engine, events, elapsedMillis / 1000.0);
            out.printf(
                    "  joined %,d requests: %,d complete, %,d partial; orphans %,d; late %,d; duplicates dropped %,d; "
                            + "dead-lettered %,d%n",
                    joined, complete, joined - complete, orphans, late, duplicates, deadLettered);
            if (!Double.isNaN(steadyEventsPerSec)) {
                out.printf("  job rate %,.0f events/s (steady, 10%%..90%% of the events)%n", steadyEventsPerSec);
            }
            if (cores != null) {
                out.printf(
                        "  cores meanwhile: the job's threads %.2f (%,.0f events/s a core of them), the threads"
                                + " there before the job %.2f, the JVM's own %.2f, a broker in its own JVM %.2f%n",
                        cores.jobThreads(),
                        steadyEventsPerSec / cores.jobThreads(),
                        cores.otherThreads(),
                        cores.jvm(),
                        cores.brokerProcess());
            }
            if (!Double.isNaN(offeredEventsPerSec)) {
                out.printf(
                        "  live traffic offered at %,.0f events/s; the job ended %,d ms after its last event%s%n",
                        offeredEventsPerSec,
                        drainMillis,
                        !caughtUp
                                ? "; it never kept up (latency counted from the warm-up's end)"
                                : keptUp ? "" : "; it fell a second or more behind after catching up");
            }
            if (latencyP50Millis >= 0) {
                out.printf(
                        "  join latency (last needed event -> emission, processing time): p50 %,d ms, p99 %,d ms, "
                                + "p99.9 %,d ms%n",
                        latencyP50Millis, latencyP99Millis, latencyP999Millis);
            }
        }

        String toJson() {
            ObjectNode node = new ObjectMapper().createObjectNode();
            node.put("engine", engine)
                    .put("events", events)
                    .put("joined", joined)
                    .put("complete", complete)
                    .put("partial", joined - complete)
                    .put("orphans", orphans)
                    .put("late", late)
                    .put("duplicatesDropped", duplicates)
                    .put("deadLettered", deadLettered)
                    .put("elapsedMillis", elapsedMillis)
                    .put("latencyP50Millis", latencyP50Millis)
                    .put("latencyP99Millis", latencyP99Millis)
                    .put("latencyP999Millis", latencyP999Millis);
            if (!Double.isNaN(offeredEventsPerSec)) {
                node.put("offeredEventsPerSec", Math.round(offeredEventsPerSec))
                        .put("drainMillis", drainMillis)
                        .put("caughtUp", caughtUp)
                        .put("keptUp", keptUp);
            }
            if (!Double.isNaN(steadyEventsPerSec)) {
                node.put("steadyEventsPerSec", Math.round(steadyEventsPerSec));
            }
            if (cores != null) {
                node.putObject("cores")
                        .put("jobThreads", round2(cores.jobThreads()))
                        .put("otherThreads", round2(cores.otherThreads()))
                        .put("jvm", round2(cores.jvm()))
                        .put("brokerProcess", round2(cores.brokerProcess()));
                node.put("eventsPerJobCore", Math.round(steadyEventsPerSec / cores.jobThreads()));
            }
            return node.toString();
        }

        private static double round2(double cores) {
            return Math.round(cores * 100) / 100.0;
        }
    }
}
