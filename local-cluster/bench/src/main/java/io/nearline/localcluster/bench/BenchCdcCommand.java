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
import io.nearline.common.config.ValueType;
import io.nearline.common.testkit.ChangeEventGenerator;
import io.nearline.jobs.kit.processes.Home;
import io.nearline.localcluster.kit.baselines.BlindWrites;
import io.nearline.localcluster.kit.options.SeedOption;
import io.nearline.localcluster.kit.processes.ForkedStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nearline bench cdc}: the cache-updater job's throughput on each engine against the raw consume rate and the store's ceiling. */
@Command(
        name = "cdc",
        mixinStandardHelpOptions = true,
        description = {
            "Replay a generated change stream through the cache-updater job into the RocksDB store on "
                    + "each engine, and report its steady rate next to the raw consume rate of the same topic, "
                    + "measured in the same run."
        })
public final class BenchCdcCommand implements Callable<Integer> {

    @Mixin
    BenchRunOptions run = new BenchRunOptions(2);

    @Mixin
    SeedOption seed;

    @Option(names = "--events", defaultValue = "1000000", description = "Change events (default: ${DEFAULT-VALUE}).")
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

    @Option(
            names = "--against",
            paramLabel = "blind|publishing",
            description = "blind: each engine also runs the same job right after its ordered run, into an emptied "
                    + "store, with the store's guarded writes made blind upserts (no read, no version compare: "
                    + "what a plain sink does); the summary gains against and againstRatio. Flink and Samza only. "
                    + "publishing: the other run publishes consistent-through for readers every second "
                    + "(write.consistent-through.publish-every=1s), so againstRatio is what publishing costs.")
    String against;

    @Mixin
    Benches.Settings settings = new Benches.Settings();

    @Override
    public Integer call() throws Exception {
        if (rate != null) {
            long seconds = ValueType.DURATION.parse(duration).toSeconds();
            Benches.positive("--rate", rate, "--duration (seconds)", seconds);
            events = rate * seconds;
        }
        Benches.positive(
                "--events", events, "--keys", keys, "--partitions", run.partitions, "--parallelism", run.parallelism);
        run.requireRounds(against);
        if (!List.of("rocksdb", "couchbase", "redis").contains(store)) {
            throw new IllegalArgumentException("--store must be rocksdb, couchbase or redis, got " + store);
        }
        run.requireEngines(List.of("flink", "samza", "connect"));
        if (against != null) {
            if (!against.equals("publishing")) {
                Benches.requireBlind(against, "cdc", run.engines);
            }
            if (rate != null) {
                throw new IllegalArgumentException(
                        "--against blind compares steady rates: leave out --rate (a live run measures staleness)");
            }
        }
        if (run.engines.contains("connect") && store.equals("rocksdb")) {
            throw new IllegalArgumentException("--engine connect writes a networked cache: add --store couchbase "
                    + "or --store redis (the embedded store cannot be a connector's)");
        }
        return WorkDirs.inWorkDir(run.workDir, "nearline-bench", this::bench);
    }

    private int bench(Path work) throws Exception {
        Path stream = work.resolve("events.jsonl");
        System.out.printf(
                "bench cdc: generating %,d events over %,d keys (seed %d) in %s%n", events, keys, seed.value, stream);
        ChangeEventGenerator.write(stream, events, keys, seed.value);
        try (ForkedStore server = store.equals("rocksdb") ? null : ForkedStore.start(store, work)) {
            return run(work, stream, server);
        }
    }

    private int run(Path work, Path stream, ForkedStore server) throws Exception {
        if (rate != null) {
            return runLive(work, stream, server);
        }
        Benches.Ceilings ceilings = ceilings(work, stream, server);
        Path syncStream = work.resolve("events-sync.jsonl");
        if (server != null) {
            try (var lines = Files.lines(stream)) {
                Files.write(syncStream, lines.limit(syncEvents).toList());
            }
        }
        Map<String, ObjectNode> members = new LinkedHashMap<>();
        for (String engine : run.engines) {
            Path summary = work.resolve("summary-" + engine + ".json");
            List<String> storeArgs = Benches.storeArgs(server);
            int code = Home.runBench(
                    engine,
                    "replay-cdc",
                    replayArgs(
                            storeArgs,
                            stream,
                            work.resolve("state-" + engine + ".jsonl"),
                            work.resolve(engine),
                            summary,
                            Benches.withSettings(settings.values, "--raw-consume-baseline")));
            if (code != 0) {
                return code;
            }
            ObjectNode sync = null;
            if (server != null) {
                code = runOneWritePerEvent(engine, work, syncStream, server);
                if (code != 0) {
                    return code;
                }
                sync = Benches.readJson(work.resolve("summary-" + engine + "-sync.json"));
                sync.put(
                        "verified",
                        Benches.stateMatches(
                                engine + " (one write per event)",
                                List.of(syncStream),
                                work.resolve("state-" + engine + "-sync.jsonl")));
            }
            ObjectNode m = member(engine, work, stream, Benches.readJson(summary), sync, ceilings);
            if (against != null) {
                code = againstBlind(engine, work, stream, server, m);
                if (code != 0) {
                    return code;
                }
            }
            members.put(engine, m);
        }
        return Benches.finish(
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
    private Benches.Ceilings ceilings(Path work, Path stream, ForkedStore server) throws Exception {
        Map<String, String> storeSettings = new LinkedHashMap<>();
        storeSettings.put("cache.store", store);
        storeSettings.put("rocksdb.path", work.resolve("ceiling-rocksdb").toString());
        if (server == null) {
            return new Benches.Ceilings(
                    Benches.storeCeiling("cdc", stream, storeSettings, run.parallelism, "writes/s"), -1);
        }
        storeSettings.putAll(server.settings());
        Benches.Ceilings kept = null;
        for (int round = 0; round < 2; round++) {
            server.restart();
            double ordered = Benches.storeCeiling("cdc", stream, storeSettings, run.parallelism, "writes/s");
            server.restart();
            kept = new Benches.Ceilings(ordered, Benches.blindCeiling(stream, storeSettings, run.parallelism, ordered));
        }
        server.restart();
        return kept;
    }

    /** A networked store's comparison: the same job writing one event at a time, into an emptied cache. */
    private int runOneWritePerEvent(String engine, Path work, Path syncStream, ForkedStore server) throws Exception {
        return runAgain(engine, "-sync", work, syncStream, server, oneWritePerEvent());
    }

    /**
     * {@code --against blind}: the run again with blind writes ({@code BlindWrites}) into an emptied
     * store, and with {@code --rounds} more pairs, ordered then blind ({@link Benches#alternate}); the
     * figures go into the engine's member {@code m}, whose first ordered run is the bench's main one.
     */
    private int againstBlind(String engine, Path work, Path stream, ForkedStore server, ObjectNode m) throws Exception {
        Map<String, String> other =
                against.equals("blind") ? Benches.blind(settings.values) : Benches.publishing(settings.values);
        int code = Benches.alternate(
                m,
                "writtenPerSec",
                against,
                run.rounds,
                r -> measured(engine, r, work, stream, server, settings.values),
                r -> measured(engine, "-" + against + r, work, stream, server, other));
        if (code == 0 && run.rounds > 1) {
            m.put(
                    "writtenPerCeiling",
                    Benches.ratio(
                            m.path("writtenPerSec").asLong(),
                            m.path("ceilingPerSec").asLong()));
        }
        return code;
    }

    /** One more run ({@link #runAgain}), checked: a blind one by {@link Benches#blindVerified}, an ordered one by its state. */
    private Benches.Measured measured(
            String engine, String suffix, Path work, Path stream, ForkedStore server, Map<String, String> values)
            throws Exception {
        int code = runAgain(engine, suffix, work, stream, server, values);
        if (code != 0) {
            return Benches.Measured.failed(code);
        }
        ObjectNode replay = Benches.readJson(work.resolve("summary-" + engine + suffix + ".json"));
        Path state = work.resolve("state-" + engine + suffix + ".jsonl");
        boolean verified = values.containsKey(BlindWrites.SETTING)
                ? Benches.blindVerified(engine + suffix.replace("-blind", ""), replay, List.of(stream), state)
                : Benches.stateMatches(engine + suffix, List.of(stream), state)
                        && (!values.containsKey(Benches.PUBLISH_EVERY) || Benches.published(engine + suffix, replay));
        return new Benches.Measured(0, replay.path("steadyEventsPerSec").asLong(-1), verified);
    }

    /**
     * One more run of the engine with other settings, its files named with {@code suffix}, into a store
     * emptied before it and after it (a networked one; the embedded one is new in each run's directory).
     */
    private int runAgain(
            String engine, String suffix, Path work, Path stream, ForkedStore server, Map<String, String> values)
            throws Exception {
        if (server != null) {
            server.restart();
        }
        int code = Home.runBench(
                engine,
                "replay-cdc",
                replayArgs(
                        Benches.storeArgs(server),
                        stream,
                        work.resolve("state-" + engine + suffix + ".jsonl"),
                        work.resolve(engine + suffix),
                        work.resolve("summary-" + engine + suffix + ".json"),
                        Benches.withSettings(values)));
        if (server != null) {
            server.restart();
        }
        return code;
    }

    /** An engine's member of the summary: its rates against the raw consume rate and the store's ceiling. */
    private ObjectNode member(
            String engine, Path work, Path stream, ObjectNode replay, ObjectNode sync, Benches.Ceilings ceilings)
            throws IOException {
        double ceiling = ceilings.ordered();
        double blindCeiling = ceilings.blind();
        ObjectNode m = Benches.JSON.createObjectNode();
        long written = replay.path("steadyEventsPerSec").asLong(-1);
        long raw = replay.path("rawConsumePerSec").asLong(-1);
        m.put("writtenPerSec", written);
        m.put("rawPerSec", raw);
        m.put("ceilingPerSec", Math.round(ceiling));
        m.put("writtenPerRaw", Benches.ratio(written, raw));
        m.put("writtenPerCeiling", Benches.ratio(written, ceiling));
        if (blindCeiling > 0) {
            m.put("blindCeilingPerSec", Math.round(blindCeiling));
            m.put("ceilingPerBlind", Benches.ratio(ceiling, blindCeiling));
        }
        boolean verified = Benches.stateMatches(engine, List.of(stream), work.resolve("state-" + engine + ".jsonl"));
        if (sync != null) {
            long perEvent = sync.path("steadyEventsPerSec").asLong(-1);
            m.put("syncPerSec", perEvent);
            m.put("writtenPerSync", Benches.ratio(written, perEvent));
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
            List<String> storeArgs = Benches.storeArgs(server);
            int code = Home.runBench(
                    engine,
                    "replay-cdc",
                    replayArgs(storeArgs, stream, state, work.resolve(engine), summary, liveArgs()));
            if (code != 0) {
                return code;
            }
            ObjectNode replay = Benches.readJson(summary);
            ObjectNode m = Benches.JSON.createObjectNode();
            m.put("writtenPerSec", replay.path("steadyEventsPerSec").asLong(-1));
            for (String field :
                    List.of("offeredEventsPerSec", "stalenessP50Millis", "stalenessP99Millis", "stalenessP999Millis")) {
                m.put(field, replay.path(field).asLong(-1));
            }
            boolean caughtUp = replay.path("caughtUp").asBoolean();
            m.put("caughtUp", caughtUp);
            m.put("keptUp", replay.path("keptUp").asBoolean());
            m.put("drainMillis", replay.path("drainMillis").asLong(-1));
            m.put(
                    "verified",
                    Benches.keptUp(engine, caughtUp, replay.path("keptUp").asBoolean())
                            && replay.path("stalenessUnmatchedKeys").asLong(-1) == 0
                            && Benches.stateMatches(engine, List.of(stream), state));
            m.set("replay", replay);
            members.put(engine, m);
        }
        return Benches.finish(
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
        return Benches.withSettings(settings.values, "--live-rate", Integer.toString(rate), "--warm-up", warmUp);
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
