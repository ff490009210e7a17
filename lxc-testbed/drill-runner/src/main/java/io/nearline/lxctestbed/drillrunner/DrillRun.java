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
package io.nearline.lxctestbed.drillrunner;

import io.nearline.common.config.Config;
import io.nearline.common.config.ValueType;
import io.nearline.common.store.CacheStores;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.YarnRest;
import io.nearline.jobs.deploy.DeployCommand;
import io.nearline.jobs.deploy.Descriptor;
import io.nearline.lxctestbed.testbed.TestbedHeal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/**
 * One drill run: deploy the job to the testbed, run the load, apply the faults on schedule and heal
 * them, drain, check, and write the run's folder (results.json, history.jsonl, faults.jsonl,
 * timeline.png, report.md). The job is killed at the end, whatever happened.
 */
final class DrillRun {

    /** How the run ended: its verdict and where its report is. */
    record Outcome(
            String drill,
            String engine,
            boolean valid,
            long divergentKeys,
            Double detectionSeconds,
            Double recoverySeconds,
            List<String> reasons,
            Path folder) {}

    private static final DateTimeFormatter UTC =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    /** Where a run works: the checkout, the testbed's directory, and the store of run folders. */
    record Places(Path home, Path testbed, Path store) {}

    /** What a run's folder is made of: its report, results, history and timeline. */
    record Ran(
            Drill drill,
            Outcome outcome,
            Verdict.Checks checks,
            List<Verdict.FaultOutcome> faults,
            List<Timeline.Second> history,
            String appId,
            long seed,
            String load) {}

    private final Drill drill;
    private final Baseline.Load chosenLoad;
    private long steadyBacklog;
    private final String engine;
    private final String job;
    private final long seed;
    private final Path home;
    private final Path testbed;
    private final Path store;

    // the run once its job is up
    private ClusterFile c;
    private Descriptor d;
    private Injector injector;
    private Probe probe;
    private Map<String, String> settings;
    private Map<String, String> topics;
    private String tag;
    private Path folder;
    private String appId;
    private Instant started;
    private final List<Timeline.Second> history = Collections.synchronizedList(new ArrayList<>());
    private final List<Verdict.FaultOutcome> faults = Collections.synchronizedList(new ArrayList<>());

    /** Faults in place and not healed yet, with how they were applied: what an interrupted run heals. */
    private final Map<Drill.Fault, Injector.Applied> unhealed = new ConcurrentHashMap<>();
    /** What could not be healed even at the end: the testbed is marked faulted, and the report says so. */
    private volatile List<String> leftFaulted = List.of();
    /** YARN's and the containers' words on the job, read before the run stops it: shown when not valid. */
    private List<String> jobErrors = List.of();

    /** A run of {@code drill} at {@code load}'s rate (the drill file's, or a share of the job's baseline). */
    DrillRun(Drill drill, String engine, String job, long seed, Places places, Baseline.Load load) {
        this.drill = drill.withLoadRate(load.rate());
        this.chosenLoad = load;
        this.engine = engine;
        this.job = job;
        this.seed = seed;
        this.home = places.home();
        this.testbed = places.testbed();
        this.store = places.store();
    }

    Outcome run() throws IOException, InterruptedException {
        c = ClusterFile.read(testbed);
        TestbedHeal.refuseIfFaulted(testbed);
        TestbedJob.requireAllNodesUp(c, testbed);
        started = Instant.now();
        String stamp = UTC.format(started);
        folder = Files.createDirectories(store.resolve(drill.name()).resolve(stamp));
        tag = "drill-" + stamp.toLowerCase();
        d = Descriptor.read(home.resolve("jobs/deploy/" + job + "-" + engine + "-yarn.yaml"));
        TestbedJob.stopLeftovers(c, d);
        System.out.printf("drill %s on %s (%s), seed %d: %s%n", drill.name(), engine, job, seed, drill.description());
        topics = DrillLoad.topics(job, tag);
        // a fresh job: no state or checkpoint of an earlier run comes back
        settings = DeployCommand.submit(d, c, topics, tag);
        try {
            appId = TestbedJob.awaitApp(c, d);
            TestbedJob.awaitContainers(appId);
        } catch (RuntimeException e) {
            TestbedJob.stopLeftovers(c, d); // nothing of a run that could not start stays on the testbed
            throw e;
        }
        System.out.println(
                "  job " + appId + " running: " + JobContainers.of(appId).size() + " containers");

        // an interrupted run (Ctrl-C, kill) heals what it applied and stops its job: no broker left
        // stopped, no node left frozen or cut off for the next run
        probe = new Probe(c.address());
        injector = new Injector(testbed, c, appId, engine, d.name(), probe);
        Thread onInterrupt = new Thread(() -> {
            healWhatIsLeft("interrupted");
            YarnRest.kill(c.yarnWeb(), appId);
        });
        Runtime.getRuntime().addShutdownHook(onInterrupt);
        try {
            return runApplied();
        } finally {
            Runtime.getRuntime().removeShutdownHook(onInterrupt);
            probe.close();
        }
    }

    /** The run once its job is up: load, faults, drain, check, and the run's folder. */
    private Outcome runApplied() throws IOException, InterruptedException {
        Verdict.Checks checks;
        String describe;
        ExecutorService threads = Executors.newCachedThreadPool(); // the load and each fault on a thread of its own
        try (DrillLoad load = load();
                JobWatermark watermark = new JobWatermark(c, engine, d.name())) {
            if (job.equals("cache-updater")) { // the join has no store to be consistent with
                watermark.start();
            }
            describe = load.describe(drill.loadRate(), drill.loadSeconds(), seed) + " The rate is " + chosenLoad.note()
                    + ".";
            long t0 = System.nanoTime();
            CompletableFuture<Long> commits =
                    CompletableFuture.supplyAsync(() -> load.run(drill.loadRate(), drill.loadSeconds(), seed), threads);
            List<CompletableFuture<Void>> scheduled = new ArrayList<>();
            FaultLife life = new FaultLife(injector, FaultLife.Timing.DRILL, unhealed);
            for (Drill.Fault f : drill.faults()) {
                scheduled.add(CompletableFuture.runAsync(() -> faults.add(life.live(f, t0)), threads));
            }
            long drainDeadline = sampleUntilDrained(
                    load,
                    watermark,
                    t0,
                    () -> commits.isDone() && scheduled.stream().allMatch(CompletableFuture::isDone),
                    commits);
            checks = checks(load, commits.join(), drainDeadline);
            steadyBacklog = load.steadyBacklog(drill.loadRate());
        } finally {
            threads.shutdownNow();
            YarnRest.kill(c.yarnWeb(), appId);
            healWhatIsLeft("at the end");
        }
        return conclude(checks, describe);
    }

    /**
     * Tries once more to heal each fault that could not be healed in its time; what still cannot be marks
     * the testbed faulted (named in the report), and the next drill refuses it until 'testbed heal'.
     */
    private void healWhatIsLeft(String when) {
        List<String> left = new ArrayList<>();
        unhealed.forEach((f, a) -> {
            try {
                injector.heal(f, a);
                unhealed.remove(f);
                System.err.println("  " + when + ": " + f.kind().label() + " on " + a.target() + " healed");
            } catch (RuntimeException e) {
                left.add(f.kind().label() + " on " + a.target() + ": " + e.getMessage());
            }
        });
        leftFaulted = List.copyOf(left);
        if (!left.isEmpty()) {
            TestbedHeal.mark(testbed, left);
            System.err.println("  the testbed is left faulted (" + String.join("; ", left) + "): 'bin/nearline testbed "
                    + "heal --dir " + testbed + "' before the next drill");
        }
    }

    /** The run's per-second readings. */
    List<Timeline.Second> history() {
        return List.copyOf(history);
    }

    /** The backlog under which the job kept pace with this run's load. */
    long steadyBacklog() {
        return steadyBacklog;
    }

    /** The run's folder. */
    Path folder() {
        return folder;
    }

    /**
     * Samples the job each second while the load runs and the faults play out, then until it has
     * drained or the drain time is up; returns that deadline.
     */
    private long sampleUntilDrained(
            DrillLoad load,
            JobWatermark watermark,
            long t0,
            BooleanSupplier loadAndFaultsOver,
            CompletableFuture<Long> commits)
            throws InterruptedException {
        long drainDeadline = Long.MAX_VALUE;
        Long previous = null;
        while (true) {
            long tick = System.nanoTime();
            DrillLoad.Reading r = load.sample();
            double t = (tick - t0) / 1e9;
            Long throughput = r.applied() == null || previous == null ? null : r.applied() - previous;
            previous = r.applied() == null ? previous : r.applied();
            history.add(new Timeline.Second(
                    t,
                    r.sent(),
                    r.applied(),
                    throughput,
                    r.backlog(),
                    r.stalenessP99Millis(),
                    watermark.lagMillis().stream().boxed().findFirst().orElse(null),
                    JobContainers.of(appId).size()));
            if (history.size() % 5 == 0) {
                System.err.printf(
                        "  t=%3.0fs sent %,d applied %s backlog %s stale p99 %s ms%n",
                        t, r.sent(), r.applied(), r.backlog(), r.stalenessP99Millis());
            }
            if (commits.isCompletedExceptionally()) {
                commits.join(); // the load failed: the run proves nothing, say why
            }
            boolean loadDone = loadAndFaultsOver.getAsBoolean();
            if (loadDone && drainDeadline == Long.MAX_VALUE) {
                drainDeadline = System.nanoTime() + drill.drain().toNanos();
                System.err.println("  load and faults over: draining");
            }
            if (loadDone && r.backlog() != null && r.backlog() == 0 || System.nanoTime() > drainDeadline) {
                return drainDeadline;
            }
            Thread.sleep(Math.max(0, 1000 - (System.nanoTime() - tick) / 1_000_000));
        }
    }

    /** The load's check of the output, the job's state at the end, and how long it took to catch up. */
    private Verdict.Checks checks(DrillLoad load, long units, long drainDeadline) throws InterruptedException {
        Verdict.Checked checked = load.check(drainDeadline);
        System.out.println("  check: " + checked.summary());
        String state = YarnRest.app(c.yarnWeb(), appId).state();
        jobErrors = JobErrors.of(c.yarnWeb(), appId, testbed); // before the run stops the job
        double healedAt = faults.stream()
                .mapToDouble(f -> f.endSeconds() == null ? f.startSeconds() : f.endSeconds())
                .max()
                .orElse(0);
        List<double[]> backlog = history.stream()
                .map(s -> new double[] {s.t(), s.consumerLag() == null ? Double.NaN : s.consumerLag()})
                .toList();
        double firstFault = faults.stream()
                .mapToDouble(Verdict.FaultOutcome::startSeconds)
                .min()
                .orElse(0);
        return new Verdict.Checks(
                units,
                load.sent(),
                load.sendFailures(),
                checked,
                Verdict.recoverySeconds(backlog, firstFault, healedAt, load.steadyBacklog(drill.loadRate())),
                state);
    }

    /** The verdict, the run's folder, and {@code STORE/latest} pointing at it. */
    private Outcome conclude(Verdict.Checks checks, String describe) throws IOException {
        List<Verdict.FaultOutcome> outcomes = faults.stream()
                .map(f -> f.applied() ? f.withBehind(behindSeconds(f, history, steadyBacklog)) : f)
                .toList();
        List<String> reasons = new ArrayList<>(Verdict.reasons(outcomes, drill.detectWithin(), checks));
        if (!leftFaulted.isEmpty()) {
            reasons.add("the testbed is left faulted (" + String.join("; ", leftFaulted) + "): 'bin/nearline testbed "
                    + "heal' clears it, and the next drill refuses it until then");
        }
        if (!reasons.isEmpty()) {
            Files.write(folder.resolve("job-errors.txt"), jobErrors);
            System.err.println("  the job's own account (" + folder.resolve("job-errors.txt") + "):");
            jobErrors.stream().limit(60).forEach(line -> System.err.println("    " + line));
        }
        Outcome outcome = new Outcome(
                drill.name(),
                engine,
                reasons.isEmpty(),
                checks.checked().divergentKeys() != null
                        ? checks.checked().divergentKeys()
                        : checks.checked().lostJoins() + checks.checked().duplicateJoins(),
                outcomes.stream()
                        .map(Verdict.FaultOutcome::detectionSeconds)
                        .filter(x -> x != null)
                        .max(Double::compare)
                        .orElse(null),
                checks.recoverySeconds(),
                reasons,
                folder);
        new RunFolder(folder, drill, engine, job, started, appId, chosenLoad)
                .write(new Ran(drill, outcome, checks, outcomes, List.copyOf(history), appId, seed, describe));
        RunFolder.link(store, folder);
        return outcome;
    }

    /**
     * Seconds from the fault to the first second the drill's load was behind (the backlog above what
     * keeping pace leaves open, or unreadable), or null: reported beside detection, never as it.
     */
    private static Double behindSeconds(Verdict.FaultOutcome f, List<Timeline.Second> history, long steadyBacklog) {
        return history.stream()
                .filter(s -> s.t() >= f.startSeconds())
                .filter(s -> s.consumerLag() == null || s.consumerLag() > steadyBacklog)
                .map(s -> s.t() - f.startSeconds())
                .findFirst()
                .orElse(null);
    }

    /**
     * The job's load, on the run's own topics (and, for the cache updater, its own keys in the shared
     * store). It works from the settings the job was deployed with: the join's end of traffic must close
     * windows of the job's length, and a Samza package brings its own (30 s, not the default 10 s).
     */
    private DrillLoad load() {
        if (job.equals("tracking-join")) {
            JoinSettings join = JoinSettings.from(Config.of(settings));
            return new JoinLoad(c.kafkaBootstrapServers(), join, folder.resolve("traffic"), outputDelay(join));
        }
        return new CacheLoad(
                tag + ":", c.kafkaBootstrapServers(), topics.get("cdc.topic"), CacheStores.open(Config.of(settings)));
    }

    /** Flink's exactly-once join outputs are seen when their checkpoint completes: up to an interval late. */
    private Duration outputDelay(JoinSettings join) {
        String interval = d.engineSettings().get("execution.checkpointing.interval");
        if (!engine.equals("flink")
                || join.outputDelivery() != JoinSettings.OutputDelivery.EXACTLY_ONCE
                || interval == null) {
            return Duration.ZERO;
        }
        return ValueType.DURATION.parse(interval);
    }

    private static void sleepUntil(long t0, Duration at) {
        long wait = t0 + at.toNanos() - System.nanoTime();
        if (wait > 0) {
            Daemons.sleep(wait / 1_000_000);
        }
    }
}
