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
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.jobs.checker.DivergenceChecker;
import io.nearline.jobs.kit.console.LinesFile;
import io.nearline.jobs.kit.processes.Home;
import io.nearline.localcluster.joinreference.JoinOracle;
import io.nearline.localcluster.joinreference.JoinOutputs;
import io.nearline.localcluster.joinreference.TrackingGenerator;
import io.nearline.localcluster.joinreplay.JoinInputs;
import io.nearline.localcluster.kit.options.SeedOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nearline bench join}: the tracking join's throughput and join latency on each engine, verified against the oracle. */
@Command(
        name = "join",
        mixinStandardHelpOptions = true,
        description = {
            "Replay generated feed tracking traffic (fan-out up to 16) through the feed-tracking-join job "
                    + "on each engine, and report its steady rate and the join latency (processing time from the arrival "
                    + "of the last event a complete join needed to its emission, p50/p99)."
        })
public final class BenchJoinCommand implements Callable<Integer> {

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

    @Option(
            names = "--against",
            paramLabel = "flink-sql",
            description = "flink-sql: on Flink, the same traffic is also joined by a Flink SQL job written as a user "
                    + "would (an interval join of the fragments to their broker event, then one row per request "
                    + "in a session window), right after Nearline's run; its rows are checked against the "
                    + "oracle and the summary gains against (with its latency from the arrival of a request's "
                    + "newest event to its row) and againstRatio.")
    String against;

    @Mixin
    Benches.Settings settings = new Benches.Settings();

    @Override
    public Integer call() throws Exception {
        Benches.positive("--requests", requests, "--partitions", run.partitions, "--parallelism", run.parallelism);
        long spacingMicros = 10_000;
        if (rate != null) {
            long seconds = ValueType.DURATION.parse(duration).toSeconds();
            Benches.positive("--rate", rate, "--duration (seconds)", seconds);
            requests = (int) Math.max(1, Math.round(rate * seconds / EVENTS_PER_REQUEST));
            spacingMicros = Math.max(1, seconds * 1_000_000 / requests);
        }
        boolean eager = "eager".equalsIgnoreCase(settings.values.getOrDefault(JoinSettings.EMIT_COMPLETE.name(), ""));
        long spacing = spacingMicros;
        run.requireEngines(List.of("flink", "samza"));
        run.requireRounds(against);
        if (against != null && !against.equals("flink-sql")) {
            throw new IllegalArgumentException("--against must be flink-sql for bench join, got " + against);
        }
        if (against != null && !run.engines.contains("flink")) {
            throw new IllegalArgumentException(
                    "--against flink-sql runs beside Nearline's join on Flink: add flink to --engine");
        }
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
            if (rate != null) {
                writeRebased(out);
            }
            ObjectNode replay = Benches.readJson(summary);
            ObjectNode m = member(replay);
            m.put("verified", keptUp(engine, replay) & Benches.outputsMatch(engine, expected, out));
            m.set("replay", replay);
            if (against != null && engine.equals("flink")) {
                code = againstSql(work, expected, eager, m);
                if (code != 0) {
                    return code;
                }
            }
            members.put(engine, m);
        }
        return Benches.finish(
                String.format(
                        "bench join (%,d events, %d partitions, parallelism %d%s%s)",
                        w.fragments() + w.brokerEvents(),
                        run.partitions,
                        run.parallelism,
                        rate == null ? "" : ", live at " + rate + " events/s for " + duration,
                        eager ? ", eager" : ""),
                members,
                engine -> work.resolve("out-" + engine).resolve(rate == null ? "joined.jsonl" : REBASED),
                run.summaryJson);
    }

    /**
     * {@code --against flink-sql}: the traffic through the SQL job ({@code replay-join-sql}) after
     * Nearline's run on Flink, and with {@code --rounds} more pairs, Nearline's then the SQL job's
     * ({@link Benches#alternate}), each checked against the oracle; the rates, the ratio and the SQL job's
     * latency (over every round's rows) go into Nearline's member {@code m}.
     */
    private int againstSql(Path work, JoinOutputs expected, boolean eager, ObjectNode m) throws Exception {
        List<String> rows = new ArrayList<>();
        int code = Benches.alternate(
                m,
                "eventsPerSec",
                "flink-sql",
                run.rounds,
                r -> nearlineAgain(work, r, expected, eager),
                r -> sqlJoin(work, r, expected, rows));
        long[] latencies = SqlJoinCheck.latenciesMillis(rows);
        if (code == 0) {
            ObjectNode against = (ObjectNode) m.path("against");
            against.put("latencyP50Millis", percentile(latencies, 50));
            against.put("latencyP99Millis", percentile(latencies, 99));
            against.put("rows", rows.size());
        }
        return code;
    }

    /** Nearline's join on Flink once more ({@code --rounds}), checked against the oracle. */
    private Benches.Measured nearlineAgain(Path work, String round, JoinOutputs expected, boolean eager)
            throws Exception {
        Path summary = work.resolve("summary-flink" + round + ".json");
        int code = Home.runBench("flink", "replay-join", replayJoinArgs("flink" + round, work, summary));
        if (code != 0) {
            return Benches.Measured.failed(code);
        }
        Path out = work.resolve("out-flink" + round);
        if (eager) {
            foldRepeats(out);
        }
        ObjectNode replay = Benches.readJson(summary);
        return new Benches.Measured(
                0,
                replay.path("steadyEventsPerSec").asLong(-1),
                keptUp("flink" + round, replay) & Benches.outputsMatch("flink" + round, expected, out));
    }

    /** The SQL job over the traffic, its rows checked against the oracle and added to {@code rows}. */
    private Benches.Measured sqlJoin(Path work, String round, JoinOutputs expected, List<String> rows)
            throws Exception {
        Path summary = work.resolve("summary-flink-sql" + round + ".json");
        int code = Home.runBench("flink", "replay-join-sql", replayJoinArgs("flink-sql" + round, work, summary));
        if (code != 0) {
            return Benches.Measured.failed(code);
        }
        ObjectNode replay = Benches.readJson(summary);
        List<String> sqlRows =
                Files.readAllLines(work.resolve("out-flink-sql" + round).resolve("sql-joined.jsonl"));
        rows.addAll(sqlRows);
        return new Benches.Measured(
                0,
                replay.path("steadyEventsPerSec").asLong(-1),
                keptUp("flink-sql" + round, replay) & sqlMatches(expected, sqlRows));
    }

    /** A live run's figures count only if it kept up with the load; a replay's always do. */
    private boolean keptUp(String engine, ObjectNode replay) {
        return rate == null
                || Benches.keptUp(
                        engine,
                        replay.path("caughtUp").asBoolean(),
                        replay.path("keptUp").asBoolean());
    }

    /** The SQL job's rows against the oracle ({@link SqlJoinCheck}); printed. */
    private static boolean sqlMatches(JoinOutputs expected, List<String> rows) {
        SqlJoinCheck.Result check = SqlJoinCheck.check(expected.repeatsFolded(), rows);
        System.out.printf(
                "  check flink-sql: %,d requests against the oracle, %,d mismatched%s; %,d requests with no "
                        + "fragment left out%n",
                check.requests(),
                check.mismatches().size(),
                check.matches() ? "" : " (first: " + check.mismatches().get(0) + ")",
                check.withoutFragments());
        return check.matches();
    }

    /** The {@code p}th percentile of sorted values (nearest rank), -1 for none. */
    static long percentile(long[] sorted, double p) {
        return sorted.length == 0 ? -1 : DivergenceChecker.Report.percentile(sorted, p);
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
        args.addAll(List.of(Benches.withSettings(settings.values)));
        return args;
    }

    /** An engine's member of the summary: its rate and join latency (live: what was offered, the drain). */
    private ObjectNode member(ObjectNode replay) {
        ObjectNode m = Benches.JSON.createObjectNode();
        m.put("eventsPerSec", replay.path("steadyEventsPerSec").asLong(-1));
        m.put("latencyP50Millis", replay.path("latencyP50Millis").asLong(-1));
        m.put("latencyP99Millis", replay.path("latencyP99Millis").asLong(-1));
        m.put("latencyP999Millis", replay.path("latencyP999Millis").asLong(-1));
        if (replay.has("cores")) { // the job's own threads' CPU over the same window as the rate
            m.set("cores", replay.get("cores"));
            m.put("eventsPerJobCore", replay.path("eventsPerJobCore").asLong(-1));
        }
        if (rate != null) {
            m.put("offeredEventsPerSec", replay.path("offeredEventsPerSec").asLong(-1));
            m.put("drainMillis", replay.path("drainMillis").asLong(-1));
            m.put("caughtUp", replay.path("caughtUp").asBoolean());
        }
        return m;
    }

    /** A live run's joined outputs with event times counted from the earliest: what the engines must agree on. */
    private static final String REBASED = "joined.rebased.jsonl";

    /**
     * A live run shifts the traffic's event times to the moment each engine's run sends them, so the
     * engines' joined outputs differ by that shift; rebased ({@code JoinOutputs.rebased}) they must not.
     */
    private static void writeRebased(Path out) throws IOException {
        JoinOutputs rebased =
                new JoinOutputs(Files.readAllLines(out.resolve("joined.jsonl")), List.of(), List.of()).rebased();
        LinesFile.write(out.resolve(REBASED), rebased.joined());
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
        LinesFile.write(out.resolve("joined.jsonl"), folded.joined());
        LinesFile.write(out.resolve("late.jsonl"), folded.late());
    }
}
