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

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.common.config.Config;
import io.nearline.common.config.ValueType;
import io.nearline.common.testkit.ChangeEventGenerator;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.localcluster.joinreference.JoinOracle;
import io.nearline.localcluster.joinreference.JoinOutputs;
import io.nearline.localcluster.joinreference.TrackingGenerator;
import io.nearline.localcluster.joinreplay.JoinInputs;
import io.nearline.localcluster.kit.console.CommandGroup;
import io.nearline.localcluster.kit.options.SeedOption;
import io.nearline.localcluster.kit.processes.ForkedStore;
import io.nearline.localcluster.kit.processes.Home;
import io.nearline.localcluster.kit.runs.ReplayOutput;
import io.nearline.localcluster.sourcesimulator.ChangeLogTruth;
import io.nearline.localcluster.sourcesimulator.DivergenceChecker;
import io.nearline.localcluster.sourcesimulator.StateDumpView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code nearline bench cdc}: the cache-updater job's throughput on each engine against the raw consume rate;
 * {@code nearline bench join}: the tracking join's throughput and join latency on each engine.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "End-to-end benchmarks of the jobs on this machine.",
        subcommands = {
            BenchCommand.Cdc.class,
            BenchCommand.Join.class,
            BenchCommand.Bootstrap.class,
            CommandLine.HelpCommand.class
        })
public final class BenchCommand extends CommandGroup {

    @Command(
            name = "cdc",
            mixinStandardHelpOptions = true,
            description = {
                "Replay a generated change stream through the cache-updater job into the RocksDB store on "
                        + "each engine, and report its steady rate next to the raw consume rate of the same topic, "
                        + "measured in the same run."
            })
    public static final class Cdc implements Callable<Integer> {

        @Mixin
        BenchRunOptions run = new BenchRunOptions(2);

        @Mixin
        SeedOption seed;

        @Option(
                names = "--events",
                defaultValue = "1000000",
                description = "Change events (default: ${DEFAULT-VALUE}).")
        long events;

        @Option(names = "--keys", defaultValue = "100000", description = "Distinct keys (default: ${DEFAULT-VALUE}).")
        int keys;

        @Option(
                names = "--store",
                defaultValue = "rocksdb",
                description = "rocksdb (embedded), couchbase (CouchbaseMock in a JVM of its own, reached through the "
                        + "real SDK) or redis (a redis-server of its own): for these two the store's blind-write "
                        + "ceiling is measured beside its ordered-write one, each engine also runs with one "
                        + "synchronous write per event on the first --sync-events events, and the server is "
                        + "started afresh before every run (default: ${DEFAULT-VALUE}).")
        String store;

        @Option(
                names = "--sync-events",
                defaultValue = "20000",
                description =
                        "--store couchbase or redis: events of the one-write-per-event run (default: ${DEFAULT-VALUE}).")
        long syncEvents;

        @Option(
                names = "--rate",
                paramLabel = "EVENTS_PER_SEC",
                description = "Send the change stream at this steady rate for --duration while the job runs (--events "
                        + "is then rate x duration), and report the cache's staleness: from the send of each key's "
                        + "last event to its write into the store, p50/p99/p99.9. No ceiling or raw baseline then.")
        Integer rate;

        @Option(
                names = "--duration",
                defaultValue = "60s",
                paramLabel = "DURATION",
                description = "With --rate: how long the stream lasts (default: ${DEFAULT-VALUE}).")
        String duration;

        @Option(
                names = "--warm-up",
                defaultValue = "10s",
                paramLabel = "DURATION",
                description = "With --rate: keys last written in this first part are left out of the staleness "
                        + "(default: ${DEFAULT-VALUE}).")
        String warmUp;

        @Mixin
        Settings settings = new Settings();

        @Override
        public Integer call() throws Exception {
            if (rate != null) {
                long seconds = ValueType.DURATION.parse(duration).toSeconds();
                positive("--rate", rate, "--duration (seconds)", seconds);
                events = rate * seconds;
            }
            positive(
                    "--events",
                    events,
                    "--keys",
                    keys,
                    "--partitions",
                    run.partitions,
                    "--parallelism",
                    run.parallelism);
            if (!List.of("rocksdb", "couchbase", "redis").contains(store)) {
                throw new IllegalArgumentException("--store must be rocksdb, couchbase or redis, got " + store);
            }
            run.requireEngines(List.of("flink", "samza", "connect"));
            if (run.engines.contains("connect") && store.equals("rocksdb")) {
                throw new IllegalArgumentException("--engine connect writes a networked cache: add --store couchbase "
                        + "or --store redis (the embedded store cannot be a connector's)");
            }
            return WorkDirs.inWorkDir(run.workDir, "nearline-bench", this::bench);
        }

        private int bench(Path work) throws Exception {
            Path stream = work.resolve("events.jsonl");
            System.out.printf(
                    "bench cdc: generating %,d events over %,d keys (seed %d) in %s%n",
                    events, keys, seed.value, stream);
            ChangeEventGenerator.write(stream, events, keys, seed.value);
            try (ForkedStore server = store.equals("rocksdb") ? null : ForkedStore.start(store, work)) {
                return run(work, stream, server);
            }
        }

        private int run(Path work, Path stream, ForkedStore server) throws Exception {
            if (rate != null) {
                return runLive(work, stream, server);
            }
            Ceilings ceilings = ceilings(work, stream, server);
            Path syncStream = work.resolve("events-sync.jsonl");
            if (server != null) {
                try (var lines = Files.lines(stream)) {
                    Files.write(syncStream, lines.limit(syncEvents).toList());
                }
            }
            Map<String, ObjectNode> members = new LinkedHashMap<>();
            for (String engine : run.engines) {
                Path summary = work.resolve("summary-" + engine + ".json");
                List<String> storeArgs = storeArgs(server);
                int code = Home.runBench(
                        engine,
                        "replay-cdc",
                        replayArgs(
                                storeArgs,
                                stream,
                                work.resolve("state-" + engine + ".jsonl"),
                                work.resolve(engine),
                                summary,
                                withSettings(settings.values, "--raw-consume-baseline")));
                if (code != 0) {
                    return code;
                }
                ObjectNode sync = null;
                if (server != null) {
                    code = runOneWritePerEvent(engine, work, syncStream, storeArgs, server);
                    if (code != 0) {
                        return code;
                    }
                    sync = readJson(work.resolve("summary-" + engine + "-sync.json"));
                    sync.put(
                            "verified",
                            stateMatches(
                                    engine + " (one write per event)",
                                    List.of(syncStream),
                                    work.resolve("state-" + engine + "-sync.jsonl")));
                }
                members.put(engine, member(engine, work, stream, readJson(summary), sync, ceilings));
            }
            return finish(
                    String.format(
                            "bench cdc (%,d events, %,d keys, %d partitions, parallelism %d, %s)",
                            events, keys, run.partitions, run.parallelism, store),
                    members,
                    engine -> work.resolve("state-" + engine + ".jsonl"),
                    run.summaryJson);
        }

        /**
         * The store's ceilings for the bench's events, leaving it empty. A networked store gets its blind
         * one too: ordered and blind alternate, each into an emptied store, twice, and the second pair is
         * kept, because the first warms this JVM's code paths, which would otherwise favour whichever ran last.
         */
        private Ceilings ceilings(Path work, Path stream, ForkedStore server) throws Exception {
            Map<String, String> storeSettings = new LinkedHashMap<>();
            storeSettings.put("cache.store", store);
            storeSettings.put("rocksdb.path", work.resolve("ceiling-rocksdb").toString());
            if (server == null) {
                return new Ceilings(storeCeiling("cdc", stream, storeSettings, run.parallelism, "writes/s"), -1);
            }
            storeSettings.putAll(server.settings());
            Ceilings kept = null;
            for (int round = 0; round < 2; round++) {
                server.restart();
                double ordered = storeCeiling("cdc", stream, storeSettings, run.parallelism, "writes/s");
                server.restart();
                kept = new Ceilings(ordered, blindCeiling(stream, storeSettings, run.parallelism, ordered));
            }
            server.restart();
            return kept;
        }

        /** A networked store's comparison: the same job writing one event at a time, into an emptied cache. */
        private int runOneWritePerEvent(
                String engine, Path work, Path syncStream, List<String> storeArgs, ForkedStore server)
                throws Exception {
            server.restart();
            int code = Home.runBench(
                    engine,
                    "replay-cdc",
                    replayArgs(
                            storeArgs,
                            syncStream,
                            work.resolve("state-" + engine + "-sync.jsonl"),
                            work.resolve(engine + "-sync"),
                            work.resolve("summary-" + engine + "-sync.json"),
                            withSettings(oneWritePerEvent())));
            server.restart();
            return code;
        }

        /** An engine's member of the summary: its rates against the raw consume rate and the store's ceiling. */
        private ObjectNode member(
                String engine, Path work, Path stream, ObjectNode replay, ObjectNode sync, Ceilings ceilings)
                throws IOException {
            double ceiling = ceilings.ordered();
            double blindCeiling = ceilings.blind();
            ObjectNode m = JSON.createObjectNode();
            long written = replay.path("steadyEventsPerSec").asLong(-1);
            long raw = replay.path("rawConsumePerSec").asLong(-1);
            m.put("writtenPerSec", written);
            m.put("rawPerSec", raw);
            m.put("ceilingPerSec", Math.round(ceiling));
            m.put("writtenPerRaw", ratio(written, raw));
            m.put("writtenPerCeiling", ratio(written, ceiling));
            if (blindCeiling > 0) {
                m.put("blindCeilingPerSec", Math.round(blindCeiling));
                m.put("ceilingPerBlind", ratio(ceiling, blindCeiling));
            }
            boolean verified = stateMatches(engine, List.of(stream), work.resolve("state-" + engine + ".jsonl"));
            if (sync != null) {
                long perEvent = sync.path("steadyEventsPerSec").asLong(-1);
                m.put("syncPerSec", perEvent);
                m.put("writtenPerSync", ratio(written, perEvent));
                verified &= sync.path("verified").asBoolean();
                m.set("syncReplay", sync);
            }
            m.put("verified", verified);
            m.set("replay", replay);
            return m;
        }

        /** {@code --rate}: each engine's job fed at a steady rate; the cache's staleness at that load. */
        private int runLive(Path work, Path stream, ForkedStore server) throws Exception {
            Map<String, ObjectNode> members = new LinkedHashMap<>();
            for (String engine : run.engines) {
                if (server != null) {
                    server.restart(); // every run starts from an empty cache
                }
                Path summary = work.resolve("summary-" + engine + ".json");
                Path state = work.resolve("state-" + engine + ".jsonl");
                List<String> storeArgs = storeArgs(server);
                int code = Home.runBench(
                        engine,
                        "replay-cdc",
                        replayArgs(storeArgs, stream, state, work.resolve(engine), summary, liveArgs()));
                if (code != 0) {
                    return code;
                }
                ObjectNode replay = readJson(summary);
                ObjectNode m = JSON.createObjectNode();
                m.put("writtenPerSec", replay.path("steadyEventsPerSec").asLong(-1));
                for (String field : List.of(
                        "offeredEventsPerSec", "stalenessP50Millis", "stalenessP99Millis", "stalenessP999Millis")) {
                    m.put(field, replay.path(field).asLong(-1));
                }
                boolean caughtUp = replay.path("caughtUp").asBoolean();
                m.put("caughtUp", caughtUp);
                m.put(
                        "verified",
                        keptUp(engine, caughtUp)
                                && replay.path("stalenessUnmatchedKeys").asLong(-1) == 0
                                && stateMatches(engine, List.of(stream), state));
                m.set("replay", replay);
                members.put(engine, m);
            }
            return finish(
                    String.format(
                            "bench cdc (live at %,d events/s for %s, %,d keys, %d partitions, parallelism %d, %s)",
                            rate, duration, keys, run.partitions, run.parallelism, store),
                    members,
                    engine -> work.resolve("state-" + engine + ".jsonl"),
                    run.summaryJson);
        }

        /** This bench's settings, but one write at a time: the comparison run on Couchbase. */
        Map<String, String> oneWritePerEvent() {
            Map<String, String> oneWrite = new LinkedHashMap<>(settings.values);
            oneWrite.put("write.batch.max-keys", "1");
            oneWrite.put("write.max-in-flight", "1");
            return oneWrite;
        }

        private String[] liveArgs() {
            return withSettings(settings.values, "--live-rate", Integer.toString(rate), "--warm-up", warmUp);
        }

        /** The arguments of one engine's {@code replay cdc} run: the store's, this bench's sizes, then {@code more}. */
        private List<String> replayArgs(
                List<String> storeArgs, Path events, Path state, Path runDir, Path summary, String... more) {
            List<String> args = new ArrayList<>(storeArgs);
            args.addAll(List.of("--events", events.toString(), "--out", state.toString()));
            args.addAll(run.runnerArgs(runDir, summary));
            args.addAll(List.of(more));
            return args;
        }
    }

    @Command(
            name = "join",
            mixinStandardHelpOptions = true,
            description = {
                "Replay generated feed tracking traffic (fan-out up to 16) through the feed-tracking-join job "
                        + "on each engine, and report its steady rate and the join latency (processing time from the arrival "
                        + "of the last event a complete join needed to its emission, p50/p99)."
            })
    public static final class Join implements Callable<Integer> {

        @Mixin
        BenchRunOptions run = new BenchRunOptions(4);

        @Mixin
        SeedOption seed;

        @Option(
                names = "--requests",
                defaultValue = "105000",
                description =
                        "Feed requests; about 9.5 input events each (default: ${DEFAULT-VALUE}, about 1,000,000 events).")
        int requests;

        @Option(
                names = "--rate",
                paramLabel = "EVENTS_PER_SEC",
                description = "Offer the traffic live, at about this many input events per second for --duration, "
                        + "while the job runs (instead of replaying it as fast as the job reads); --requests is then "
                        + "derived from the rate. Join latency p50/p99/p99.9 is counted once the job has caught up "
                        + "with the traffic after its start.")
        Integer rate;

        @Option(
                names = "--duration",
                defaultValue = "60s",
                paramLabel = "DURATION",
                description = "With --rate: how long the traffic lasts (default: ${DEFAULT-VALUE}).")
        String duration;

        @Option(
                names = "--warm-up",
                defaultValue = "10s",
                paramLabel = "DURATION",
                description = "With --rate: join latency in this first part of the traffic is left out (JIT, the "
                        + "first checkpoints; default: ${DEFAULT-VALUE}).")
        String warmUp;

        @Mixin
        Settings settings = new Settings();

        @Override
        public Integer call() throws Exception {
            positive("--requests", requests, "--partitions", run.partitions, "--parallelism", run.parallelism);
            long spacingMicros = 10_000;
            if (rate != null) {
                long seconds = ValueType.DURATION.parse(duration).toSeconds();
                positive("--rate", rate, "--duration (seconds)", seconds);
                requests = (int) Math.max(1, Math.round(rate * seconds / EVENTS_PER_REQUEST));
                spacingMicros = Math.max(1, seconds * 1_000_000 / requests);
            }
            boolean eager =
                    "eager".equalsIgnoreCase(settings.values.getOrDefault(JoinSettings.EMIT_COMPLETE.name(), ""));
            long spacing = spacingMicros;
            run.requireEngines(List.of("flink", "samza"));
            return WorkDirs.inWorkDir(run.workDir, "nearline-bench-join", work -> bench(work, spacing, eager));
        }

        private int bench(Path work, long spacingMicros, boolean eager) throws Exception {
            Path index = work.resolve("index.jsonl");
            Path broker = work.resolve("broker.jsonl");
            TrackingGenerator.Written w = new TrackingGenerator(
                            requests, 64, 16, 0.02, 0.02, 0.01, 500, 0.001, 30_000, seed.value)
                    .write(index, broker, spacingMicros);
            System.out.printf(
                    "bench join: %,d requests -> %,d fragments + %,d broker events (seed %d) in %s%n",
                    requests, w.fragments(), w.brokerEvents(), seed.value, work);
            JoinInputs inputs = JoinInputs.read(index, broker).valid();
            JoinOutputs expected = JoinOracle.expected(
                    inputs.fragments(),
                    inputs.brokers(),
                    run.partitions,
                    JoinSettings.WINDOW.defaultValue().toMillis(),
                    JoinSettings.ALLOWED_LATENESS.defaultValue().toMillis());
            if (eager) {
                expected = expected.repeatsFolded();
            }
            Map<String, ObjectNode> members = new LinkedHashMap<>();
            for (String engine : run.engines) {
                Path summary = work.resolve("summary-" + engine + ".json");
                int code = Home.runBench(engine, "replay-join", replayJoinArgs(engine, work, summary));
                if (code != 0) {
                    return code;
                }
                Path out = work.resolve("out-" + engine);
                if (eager) {
                    foldRepeats(out);
                }
                ObjectNode replay = readJson(summary);
                ObjectNode m = member(replay);
                m.put(
                        "verified",
                        (rate == null || keptUp(engine, replay.path("caughtUp").asBoolean()))
                                & outputsMatch(engine, expected, out));
                m.set("replay", replay);
                members.put(engine, m);
            }
            return finish(
                    String.format(
                            "bench join (%,d events, %d partitions, parallelism %d%s%s)",
                            w.fragments() + w.brokerEvents(),
                            run.partitions,
                            run.parallelism,
                            rate == null ? "" : ", live at " + rate + " events/s for " + duration,
                            eager ? ", eager" : ""),
                    members,
                    engine -> work.resolve("out-" + engine).resolve("joined.jsonl"),
                    run.summaryJson);
        }

        private List<String> replayJoinArgs(String engine, Path work, Path summary) {
            List<String> args = new ArrayList<>(List.of(
                    "--index",
                    work.resolve("index.jsonl").toString(),
                    "--broker",
                    work.resolve("broker.jsonl").toString(),
                    "--out-dir",
                    work.resolve("out-" + engine).toString()));
            args.addAll(run.runnerArgs(work.resolve(engine), summary));
            if (rate != null) {
                args.addAll(List.of("--live", "--warm-up", warmUp));
            }
            args.addAll(List.of(withSettings(settings.values)));
            return args;
        }

        /** An engine's member of the summary: its rate and join latency (live: what was offered, the drain). */
        private ObjectNode member(ObjectNode replay) {
            ObjectNode m = JSON.createObjectNode();
            m.put("eventsPerSec", replay.path("steadyEventsPerSec").asLong(-1));
            m.put("latencyP50Millis", replay.path("latencyP50Millis").asLong(-1));
            m.put("latencyP99Millis", replay.path("latencyP99Millis").asLong(-1));
            m.put("latencyP999Millis", replay.path("latencyP999Millis").asLong(-1));
            if (rate != null) {
                m.put("offeredEventsPerSec", replay.path("offeredEventsPerSec").asLong(-1));
                m.put("drainMillis", replay.path("drainMillis").asLong(-1));
                m.put("caughtUp", replay.path("caughtUp").asBoolean());
            }
            return m;
        }

        /** Input events per request of this bench's traffic: fan-out 8.5 on average, drops, repeats, broker. */
        private static final double EVENTS_PER_REQUEST = 9.5;

        /**
         * Eager outputs compared where arrival order cannot change them: repeats folded
         * ({@code JoinOutputs.repeatsFolded}) in joined.jsonl and late.jsonl, the engine's own lines kept
         * as {@code *.unfolded.jsonl}.
         */
        private static void foldRepeats(Path out) throws IOException {
            JoinOutputs folded = new JoinOutputs(
                            Files.readAllLines(out.resolve("joined.jsonl")),
                            Files.readAllLines(out.resolve("orphans.jsonl")),
                            Files.readAllLines(out.resolve("late.jsonl")))
                    .repeatsFolded();
            for (String file : List.of("joined", "late")) {
                Files.copy(
                        out.resolve(file + ".jsonl"),
                        out.resolve(file + ".unfolded.jsonl"),
                        StandardCopyOption.REPLACE_EXISTING);
            }
            ReplayOutput.write(out.resolve("joined.jsonl"), folded.joined());
            ReplayOutput.write(out.resolve("late.jsonl"), folded.late());
        }
    }

    @Command(
            name = "bootstrap",
            mixinStandardHelpOptions = true,
            description = {
                "Replay a generated snapshot (one row per key) through the bootstrapper into the RocksDB store "
                        + "on each engine, with no live stream, and report its steady rate in bootstrap records per second."
            })
    public static final class Bootstrap implements Callable<Integer> {

        @Mixin
        BenchRunOptions run = new BenchRunOptions(2);

        @Option(names = "--rows", defaultValue = "1000000", description = "Snapshot rows (default: ${DEFAULT-VALUE}).")
        int rows;

        @Mixin
        Settings settings = new Settings();

        @Override
        public Integer call() throws Exception {
            positive("--rows", rows, "--partitions", run.partitions, "--parallelism", run.parallelism);
            run.requireEngines(List.of("flink", "samza"));
            return WorkDirs.inWorkDir(run.workDir, "nearline-bench-bootstrap", this::bench);
        }

        private int bench(Path work) throws Exception {
            Path snapshot = work.resolve("snapshot.jsonl");
            Path noEvents = Files.writeString(work.resolve("no-events.jsonl"), "");
            ChangeEventGenerator.writeSnapshot(snapshot, rows);
            System.out.printf("bench bootstrap: a snapshot of %,d rows in %s%n", rows, snapshot);
            // the snapshot's rows are change events: the same ordered writes the bootstrapper makes
            double ceiling = storeCeiling(
                    "bootstrap",
                    snapshot,
                    Map.of(
                            "cache.store",
                            "rocksdb",
                            "rocksdb.path",
                            work.resolve("ceiling-rocksdb").toString()),
                    run.parallelism,
                    "rows/s");
            Map<String, ObjectNode> members = new LinkedHashMap<>();
            for (String engine : run.engines) {
                Path summary = work.resolve("summary-" + engine + ".json");
                List<String> args = new ArrayList<>(List.of(
                        "--events",
                        noEvents.toString(),
                        "--snapshot",
                        snapshot.toString(),
                        "--out",
                        work.resolve("state-" + engine + ".jsonl").toString()));
                args.addAll(run.runnerArgs(work.resolve(engine), summary));
                int code = Home.runBench(
                        engine, "replay-cdc", List.of(withSettings(settings.values, args.toArray(String[]::new))));
                if (code != 0) {
                    return code;
                }
                ObjectNode replay = readJson(summary);
                ObjectNode m = JSON.createObjectNode();
                long rowsPerSec = replay.path("bootstrapRecordsPerSec").asLong(-1);
                m.put("rowsPerSec", rowsPerSec);
                m.put("ceilingPerSec", Math.round(ceiling));
                m.put("rowsPerCeiling", ratio(rowsPerSec, ceiling));
                boolean complete = replay.path("bootstrapPartitionsComplete").asLong() == run.partitions;
                if (!complete) {
                    System.out.println("  " + engine + ": the snapshot did not verify complete on every partition");
                }
                m.put(
                        "verified",
                        complete
                                && stateMatches(engine, List.of(snapshot), work.resolve("state-" + engine + ".jsonl")));
                m.set("replay", replay);
                members.put(engine, m);
            }
            return finish(
                    String.format(
                            "bench bootstrap (%,d rows, %d partitions, parallelism %d)",
                            rows, run.partitions, run.parallelism),
                    members,
                    engine -> work.resolve("state-" + engine + ".jsonl"),
                    run.summaryJson);
        }
    }

    static final String SUMMARY_JSON = "Also write the results as one JSON object with a member per engine "
            + "(docs/benchmarks.md lists the fields; \"verified\" is true when the bench's own check passed).";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** {@code --set} of every bench: job and engine settings for each engine's run. */
    static final class Settings {
        @Option(
                names = "--set",
                paramLabel = "KEY=VALUE",
                description = "A job or engine setting for every engine's run, e.g. write.batch.max-delay=10ms or "
                        + "join.emit-complete=eager; repeatable. (The store's ceiling of bench cdc and bench "
                        + "bootstrap is measured with the store's defaults.)")
        Map<String, String> values = new LinkedHashMap<>();
    }

    /** An engine run's arguments: {@code args}, then the bench's {@code --set} settings, which the runner applies last. */
    static String[] withSettings(Map<String, String> settings, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        settings.forEach((k, v) -> all.addAll(List.of("--set", k + "=" + v)));
        return all.toArray(String[]::new);
    }

    private static ObjectNode readJson(Path file) throws IOException {
        return (ObjectNode) JSON.readTree(file.toFile());
    }

    /** The store's own ordered-write rate for {@code input} ({@link StoreCeiling}), printed once measured. */
    private static double storeCeiling(
            String bench, Path input, Map<String, String> storeSettings, int threads, String unit)
            throws InterruptedException {
        double ceiling = StoreCeiling.measure(input, Config.of(storeSettings), threads);
        System.out.printf(
                "bench %s: the %s store's ordered-write ceiling, %d threads, no Kafka, no engine: %,.0f %s%n",
                bench, storeSettings.get("cache.store"), threads, ceiling, unit);
        return ceiling;
    }

    /** The store's ordered-write and blind-write rates for the bench's writes; blind is -1 where not measured. */
    private record Ceilings(double ordered, double blind) {}

    /** The replay options that point a job at the bench's store. */
    private static List<String> storeArgs(ForkedStore server) {
        if (server == null) {
            return List.of();
        }
        List<String> args = new ArrayList<>(List.of("--store", server.settings().get("cache.store")));
        args.addAll(server.replayArgs());
        return args;
    }

    /** The same writes as the ceiling's, blind (no version check): the store's physical limit; printed. */
    private static double blindCeiling(
            Path input, Map<String, String> storeSettings, int threads, double orderedCeiling)
            throws InterruptedException {
        double blind = StoreCeiling.measureBlind(input, Config.of(storeSettings), threads);
        System.out.printf(
                "bench cdc: the %s store's blind-write ceiling, same writes and client: %,.0f writes/s "
                        + "(ordered/blind %.2f)%n",
                storeSettings.get("cache.store"), blind, orderedCeiling / blind);
        return blind;
    }

    private static double ratio(double part, double whole) {
        return whole > 0 && part >= 0 ? Math.round(part / whole * 1000) / 1000.0 : -1;
    }

    /** Whether a state dump holds, key by key, what the change logs say (the divergence checker); printed. */
    static boolean stateMatches(String engine, List<Path> changeLogs, Path state) {
        ChangeLogTruth truth = new ChangeLogTruth(changeLogs, Integer.MAX_VALUE);
        StateDumpView cache = new StateDumpView(state);
        DivergenceChecker.Report report =
                DivergenceChecker.check(truth, cache, cache.keys(), System.currentTimeMillis());
        System.out.println("  check " + engine + ": " + report.summary());
        return report.converged();
    }

    /** Whether a join's outputs are the oracle's ({@link JoinOracle}), line for line; the files that differ printed. */
    static boolean outputsMatch(String engine, JoinOutputs expected, Path out) throws IOException {
        boolean same = true;
        for (String file : List.of("joined.jsonl", "orphans.jsonl", "late.jsonl")) {
            List<String> want = new ArrayList<>(
                    file.startsWith("joined")
                            ? expected.joined()
                            : file.startsWith("orphans") ? expected.orphans() : expected.late());
            List<String> got = new ArrayList<>(Files.readAllLines(out.resolve(file)));
            if (file.startsWith("late")) { // a live run shifts event times: the verdicts are compared
                want.replaceAll(BenchCommand::withoutEventTime);
                got.replaceAll(BenchCommand::withoutEventTime);
            }
            want.sort(null);
            got.sort(null);
            if (!want.equals(got)) {
                System.out.printf(
                        "  check %s: %s differs from the oracle (%,d lines vs %,d)%n",
                        engine, file, got.size(), want.size());
                same = false;
            }
        }
        if (same) {
            System.out.printf("  check %s: outputs equal the oracle's%n", engine);
        }
        return same;
    }

    private static String withoutEventTime(String lateLine) {
        return lateLine.replaceFirst("\"ts\":-?\\d+,?", "");
    }

    /**
     * Ends a bench: the engines' results must also agree with each other ({@code output} of each
     * engine, byte for byte); prints each engine's figures, writes {@code summaryJson}; 0 when every
     * run verified, 1 otherwise.
     */
    static int finish(String title, Map<String, ObjectNode> members, Function<String, Path> output, Path summaryJson)
            throws IOException {
        String first = null;
        for (String engine : members.keySet()) {
            if (first == null) {
                first = engine;
            } else if (Files.mismatch(output.apply(first), output.apply(engine)) != -1) {
                System.out.printf("  check: %s and %s ended differently (%s)%n", first, engine, output.apply(engine));
                members.values().forEach(m -> m.put("verified", false));
            }
        }
        System.out.printf("%n%s:%n", title);
        boolean verified = true;
        for (Map.Entry<String, ObjectNode> m : members.entrySet()) {
            ObjectNode figures = m.getValue().deepCopy();
            figures.remove("replay");
            System.out.println("  " + m.getKey() + "  " + figures);
            verified &= m.getValue().path("verified").asBoolean();
        }
        if (summaryJson != null) {
            ObjectNode all = JSON.createObjectNode();
            members.forEach(all::set);
            ReplayOutput.write(summaryJson, List.of(all.toString()));
        }
        if (!verified) {
            System.out.println("bench: a run did not verify: its figures are not to be used");
            return 1;
        }
        return 0;
    }

    /**
     * A live run's latencies are figures at the offered load only if the job kept up with it: a job
     * that never caught up measured its own backlog, so its run does not verify.
     */
    static boolean keptUp(String engine, boolean caughtUp) {
        if (!caughtUp) {
            System.out.println("  check: " + engine + " never caught up with the offered load: its latencies measure "
                    + "its backlog, not the load (offer less with --rate)");
        }
        return caughtUp;
    }

    /** Each (option, value) pair must be at least 1: a bench of nothing measures nothing (exit 2 otherwise). */
    static void positive(Object... optionsAndValues) {
        for (int i = 0; i < optionsAndValues.length; i += 2) {
            long value = ((Number) optionsAndValues[i + 1]).longValue();
            if (value < 1) {
                throw new IllegalArgumentException(optionsAndValues[i] + " must be at least 1, got " + value);
            }
        }
    }
}
