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
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.common.config.Config;
import io.nearline.jobs.checker.DivergenceChecker;
import io.nearline.jobs.kit.console.LinesFile;
import io.nearline.localcluster.joinreference.JoinOracle;
import io.nearline.localcluster.joinreference.JoinOutputs;
import io.nearline.localcluster.kit.baselines.BlindWrites;
import io.nearline.localcluster.kit.processes.ForkedStore;
import io.nearline.localcluster.sourcesimulator.ChangeLogTruth;
import io.nearline.localcluster.sourcesimulator.StateDumpView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.Option;

/** What the three benches share: their settings, the store's ceilings, the checks they verify by, and the report they end with. */
final class Benches {

    private Benches() {}

    static final String SUMMARY_JSON = "Also write the results as one JSON object with a member per engine "
            + "(docs/benchmarks.md lists the fields; \"verified\" is true when the bench's own check passed).";

    static final ObjectMapper JSON = new ObjectMapper();

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

    static ObjectNode readJson(Path file) throws IOException {
        return (ObjectNode) JSON.readTree(file.toFile());
    }

    /** The store's own ordered-write rate for {@code input} ({@link StoreCeiling}), printed once measured. */
    static double storeCeiling(String bench, Path input, Map<String, String> storeSettings, int threads, String unit)
            throws InterruptedException {
        double ceiling = StoreCeiling.measure(input, Config.of(storeSettings), threads);
        System.out.printf(
                "bench %s: the %s store's ordered-write ceiling, %d threads, no Kafka, no engine: %,.0f %s%n",
                bench, storeSettings.get("cache.store"), threads, ceiling, unit);
        return ceiling;
    }

    /** The store's ordered-write and blind-write rates for the bench's writes; blind is -1 where not measured. */
    record Ceilings(double ordered, double blind) {}

    /** The replay options that point a job at the bench's store. */
    static List<String> storeArgs(ForkedStore server) {
        if (server == null) {
            return List.of();
        }
        List<String> args = new ArrayList<>(List.of("--store", server.settings().get("cache.store")));
        args.addAll(server.replayArgs());
        return args;
    }

    /** The same writes as the ceiling's, blind (no version check): the store's physical limit; printed. */
    static double blindCeiling(Path input, Map<String, String> storeSettings, int threads, double orderedCeiling)
            throws InterruptedException {
        double blind = StoreCeiling.measureBlind(input, Config.of(storeSettings), threads);
        System.out.printf(
                "bench cdc: the %s store's blind-write ceiling, same writes and client: %,.0f writes/s "
                        + "(ordered/blind %.2f)%n",
                storeSettings.get("cache.store"), blind, orderedCeiling / blind);
        return blind;
    }

    static double ratio(double part, double whole) {
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

    /**
     * A run of what a user would run instead, beside Nearline's: the engine's member gains {@code against}
     * ({@code name}, {@code perSec}, {@code verified}) and {@code againstRatio} (Nearline's figure per the
     * other's). The member verifies only if both runs did: a ratio to an unverified run means nothing.
     */
    static void putAgainst(ObjectNode member, String name, long nearlinePerSec, long perSec, boolean verified) {
        ObjectNode against = member.putObject("against");
        against.put("name", name).put("perSec", perSec).put("verified", verified);
        member.put("againstRatio", ratio(nearlinePerSec, perSec));
        member.put("verified", member.path("verified").asBoolean() && verified);
    }

    /** One run of a {@code --against} pair: the runner's exit code, its figure, and whether it verified. */
    record Measured(int code, long perSec, boolean verified) {
        static Measured failed(int code) {
            return new Measured(code, -1, false);
        }
    }

    /** One side of a {@code --against} pair, its files named with the round's suffix ("" first, then "-r2", ...). */
    @FunctionalInterface
    interface PairRun {
        Measured run(String round) throws Exception;
    }

    /**
     * {@code --against}, the same on every bench: the alternative after Nearline's first run (whose figure
     * is already the member's {@code field}), and with {@code --rounds} more pairs back to back, Nearline's
     * then the alternative's, each checked; fills {@code against}, {@code againstRatio} and, with more than
     * one round, the medians. Returns the first failed runner's exit code, else 0.
     */
    static int alternate(ObjectNode member, String field, String name, int rounds, PairRun nearline, PairRun other)
            throws Exception {
        List<Long> ours = new ArrayList<>(List.of(member.path(field).asLong()));
        List<Long> theirs = new ArrayList<>();
        boolean verified = true;
        for (int round = 1; round <= rounds; round++) {
            String r = round == 1 ? "" : "-r" + round;
            if (round > 1) {
                Measured again = nearline.run(r);
                if (again.code() != 0) {
                    return again.code();
                }
                ours.add(again.perSec());
                verified &= again.verified();
            }
            Measured alternative = other.run(r);
            if (alternative.code() != 0) {
                return alternative.code();
            }
            theirs.add(alternative.perSec());
            verified &= alternative.verified();
        }
        putAgainst(member, name, ours.get(0), theirs.get(0), verified);
        if (rounds > 1) {
            putRounds(member, field, ours, theirs, verified);
        }
        return 0;
    }

    /**
     * {@code --rounds}: Nearline and the alternative ran back to back once per round; the member's
     * {@code field}, {@code against.perSec} and {@code againstRatio} become the medians, each round's
     * pair is kept under {@code rounds}, and the member verifies only if every round did.
     */
    static void putRounds(ObjectNode member, String field, List<Long> nearline, List<Long> against, boolean verified) {
        ArrayNode rounds = member.putArray("rounds");
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < nearline.size(); i++) {
            double r = ratio(nearline.get(i), against.get(i));
            ratios.add(r);
            rounds.addObject()
                    .put(field, nearline.get(i))
                    .put("againstPerSec", against.get(i))
                    .put("againstRatio", r);
        }
        member.put(field, Math.round(median(nearline)));
        ((ObjectNode) member.path("against")).put("perSec", Math.round(median(against)));
        member.put("againstRatio", Math.round(median(ratios) * 1000) / 1000.0);
        member.put("verified", member.path("verified").asBoolean() && verified);
    }

    /** The middle value (the mean of the two middle ones for an even count). */
    static double median(List<? extends Number> values) {
        double[] sorted =
                values.stream().mapToDouble(Number::doubleValue).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** {@code --against} of bench cdc and bench bootstrap: blind, on Flink and Samza (exit 2 otherwise). */
    static void requireBlind(String against, String bench, List<String> engines) {
        if (!against.equals("blind")) {
            throw new IllegalArgumentException("--against must be blind for bench " + bench + ", got " + against);
        }
        if (engines.contains("connect")) {
            throw new IllegalArgumentException("--against blind runs on flink and samza: the Connect worker loads "
                    + "the sink from its plugin path, where the tools' blind writes are not");
        }
    }

    /** The bench's settings with blind writes asked for ({@code BlindWrites}). */
    static Map<String, String> blind(Map<String, String> settings) {
        Map<String, String> blind = new LinkedHashMap<>(settings);
        blind.put(BlindWrites.SETTING, "true");
        return blind;
    }

    /** The setting a {@code --against publishing} run adds. */
    static final String PUBLISH_EVERY = "write.consistent-through.publish-every";

    /** The bench's settings with consistent-through published every second, for readers. */
    static Map<String, String> publishing(Map<String, String> settings) {
        Map<String, String> publishing = new LinkedHashMap<>(settings);
        publishing.put(PUBLISH_EVERY, "1s");
        return publishing;
    }

    /** Whether a publishing run did publish: its entries found in the store after the run; printed. */
    static boolean published(String engine, ObjectNode replay) {
        if (replay.path("throughEntries").asLong(0) == 0) {
            System.out.println("  check: " + engine + " left no consistent-through entry in the store");
            return false;
        }
        return true;
    }

    /**
     * Whether a blind run ({@code --against blind}) is what it claims: the job's JVM counted blind upserts
     * (it wrote through {@code BlindWrites}, not its ordered write), and its state is the change logs'
     * (the generated streams keep each key's changes in order, so a blind write ends where the ordered one
     * does); printed.
     */
    static boolean blindVerified(String engine, ObjectNode replay, List<Path> changeLogs, Path state) {
        if (replay.path("blindUpserts").asLong(0) == 0) {
            System.out.println("  check: " + engine + " (blind) counted no blind upserts: it did not write blind");
            return false;
        }
        return stateMatches(engine + " (blind)", changeLogs, state);
    }

    /** Whether a join's outputs are the oracle's ({@link JoinOracle}), line for line; the files that differ printed. */
    static boolean outputsMatch(String engine, JoinOutputs expected, Path out) throws IOException {
        // a live run shifts every event time alike: both sides counted from their earliest
        JoinOutputs want = expected.rebased();
        JoinOutputs got = new JoinOutputs(
                        Files.readAllLines(out.resolve("joined.jsonl")),
                        Files.readAllLines(out.resolve("orphans.jsonl")),
                        Files.readAllLines(out.resolve("late.jsonl")))
                .rebased();
        boolean same = true;
        for (String file : List.of("joined.jsonl", "orphans.jsonl", "late.jsonl")) {
            List<String> w = part(want, file);
            List<String> g = part(got, file);
            if (!w.equals(g)) {
                System.out.printf(
                        "  check %s: %s differs from the oracle (%,d lines vs %,d)%n",
                        engine, file, g.size(), w.size());
                same = false;
            }
        }
        if (same) {
            System.out.printf("  check %s: outputs equal the oracle's%n", engine);
        }
        return same;
    }

    private static List<String> part(JoinOutputs outputs, String file) {
        return switch (file) {
            case "joined.jsonl" -> outputs.joined();
            case "orphans.jsonl" -> outputs.orphans();
            default -> outputs.late();
        };
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
        double cpu = MachineReference.cpuMiBPerSec();
        members.values().forEach(m -> m.put("machineCpuMiBPerSec", Math.round(cpu)));
        System.out.printf("%n%s:%n", title);
        System.out.printf("  machine  one thread's fixed loop (SHA-256) in this run: %,.0f MiB/s%n", cpu);
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
            LinesFile.write(summaryJson, List.of(all.toString()));
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
    static boolean keptUp(String engine, boolean caughtUp, boolean keptUp) {
        if (!caughtUp) {
            System.out.println("  check: " + engine + " never caught up with the offered load: its latencies measure "
                    + "its backlog, not the load (offer less with --rate)");
        } else if (!keptUp) {
            System.out.println("  check: " + engine + " fell a second or more behind the offered load after catching "
                    + "up: its latencies from then on measure a backlog (offer less with --rate)");
        }
        return caughtUp && keptUp;
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
