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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.testkit.Seeds;
import io.nearline.localcluster.joinreference.JoinOracle;
import io.nearline.localcluster.joinreference.JoinOutputs;
import io.nearline.localcluster.joinreference.TrackingGenerator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The join's conformance suite: the same scenarios through an engine's real job (via its
 * {@code replay join}) and through {@link JoinOracle}, which derives the outputs from the join's rules
 * apart from the join core (same partitioning); joined, orphan and late outputs must be identical line
 * for line, dead letters and metrics must agree. Each engine module runs it as an IT, so both engines
 * answer to an oracle that does not share the code they both run.
 */
public abstract class JoinConformanceSuite {

    private static final int PARTITIONS = 4;

    @TempDir
    protected Path dir;

    /** Runs the engine's {@code replay join} with these arguments; returns its exit code. */
    protected abstract int replay(List<String> args);

    /** The engine's metrics in this JVM. */
    protected abstract InMemoryMetrics engineMetrics();

    /**
     * Whether a job restarted after a crash writes again the outputs it wrote since its last commit
     * (Samza 1.8, no transactional producer); false where outputs are transactional (Flink).
     */
    protected abstract boolean repeatsOutputsAfterACrash();

    /**
     * Hand-written cases: complete, partial, orphaned, duplicated fragment and broker event, broker
     * before its fragments, disorder within the lateness, a node outside the fan-out, a request
     * started anew after its marker expired, a straggler, bad lines and an invalid event.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void handWrittenCases() throws IOException {
        Path index = copy("basic-index.jsonl");
        Path broker = copy("basic-broker.jsonl");
        Run run = runBoth(index, broker, 1000, 200);
        JoinOutputs expected = run.expected();
        assertTrue(
                expected.complete() >= 4
                        && expected.complete() < expected.joined().size(),
                "complete and partial joins");
        assertTrue(expected.orphans().stream().anyMatch(l -> l.contains("r-orphan")), "an orphan");
        assertTrue(
                expected.late().stream().anyMatch(l -> l.contains("r-dup") && l.contains("AFTER_EMISSION")),
                "a late repeat");
        assertEquals(
                2,
                expected.joined().stream()
                        .filter(l -> l.contains("\"r-renewed\""))
                        .count(),
                "a renewed request");
        // two bad lines dead-lettered by the tool, one invalid event (negative time) by the job
        assertEquals(3, run.deadLetters().size(), run.deadLetters().toString());
        assertEquals(
                1,
                run.deadLetters().stream()
                        .filter(l -> l.contains("\"INVALID\""))
                        .count(),
                run.deadLetters().toString());
    }

    /** Generated traffic: fan-outs up to 16, delays, drops, duplicates, lost broker events, late repeats. */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void generatedTraffic() {
        long seed = Seeds.seed();
        Path index = dir.resolve("index.jsonl");
        Path broker = dir.resolve("broker.jsonl");
        TrackingGenerator.Written w =
                new TrackingGenerator(1500, 32, 16, 0.03, 0.03, 0.02, 300, 0.01, 30_000, seed).write(index, broker);
        Run run = runBoth(index, broker, 10_000, 1000);
        JoinOutputs expected = run.expected();
        assertEquals(
                w.brokerEvents(),
                expected.joined().size(),
                "one joined event per request with a broker event (seed " + seed + ")");
        assertTrue(expected.late().stream().anyMatch(l -> l.contains("BEHIND_PARTITION")), "late repeats exercised");
        assertEquals(expected.complete(), engineMetrics().count("join.complete"), "join.complete metric");
        assertEquals(
                expected.joined().size() - expected.complete(),
                engineMetrics().count("join.partial"),
                "join.partial metric");
        assertEquals(expected.orphans().size(), engineMetrics().count("join.orphans"), "join.orphans metric");
        assertEquals(expected.late().size(), engineMetrics().count("join.late"), "join.late metric");
        assertTrue(engineMetrics().percentile("join.latency-ms", 50) >= 0, "join latency recorded");
    }

    /**
     * {@code join.emit-complete=eager}: complete joins go out as their last event arrives, so where a
     * repeat is counted depends on arrival order. Folded ({@link JoinOutputs#repeatsFolded()}), the
     * engine's outputs must be the oracle's default outputs, line for line, with one joined event per
     * request with a broker event.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void eagerEmissionEndsWithTheDefaultOutputsOnceRepeatsAreFolded() {
        long seed = Seeds.seed();
        Path index = dir.resolve("index.jsonl");
        Path broker = dir.resolve("broker.jsonl");
        TrackingGenerator.Written w =
                new TrackingGenerator(1500, 32, 16, 0.03, 0.03, 0.02, 300, 0.01, 30_000, seed).write(index, broker);
        Path out = dir.resolve("out");
        List<String> args = args(index, broker, out, 10_000, 1000);
        args.addAll(List.of("--set", "join.emit-complete=eager"));
        assertEquals(0, replay(args), "replay join exit code");
        JoinInputs inputs = JoinInputs.read(index, broker).valid();
        JoinOutputs byDefault = JoinOracle.expected(inputs.fragments(), inputs.brokers(), PARTITIONS, 10_000, 1000);
        JoinOutputs eager = new JoinOutputs(
                lines(out.resolve("joined.jsonl")),
                lines(out.resolve("orphans.jsonl")),
                lines(out.resolve("late.jsonl")));
        assertTrue(
                afterEmission(eager) > afterEmission(byDefault),
                "eager: more repeats come after their request's emission (seed " + seed + ")");
        JoinOutputs expected = byDefault.repeatsFolded();
        JoinOutputs got = eager.repeatsFolded();
        assertEquals(w.brokerEvents(), got.joined().size(), "one joined event per request (seed " + seed + ")");
        assertSameLines(expected.joined(), got.joined(), "joined.jsonl, folded (seed " + seed + ")");
        assertSameLines(expected.orphans(), got.orphans(), "orphans.jsonl (seed " + seed + ")");
        assertSameLines(expected.late(), got.late(), "late.jsonl, folded (seed " + seed + ")");
        assertTrue(engineMetrics().percentile("join.latency-ms", 50) >= 0, "join latency recorded");
    }

    /**
     * {@code --live}: the same traffic sent in live event time while the job runs (event times shifted
     * to now) must give the replay's outputs: joined and orphans line for line, the late verdicts the
     * same (their event times shifted).
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void aLiveRunGivesTheReplaysOutputs() {
        long seed = Seeds.seed();
        Path index = dir.resolve("index.jsonl");
        Path broker = dir.resolve("broker.jsonl");
        TrackingGenerator.Written w =
                new TrackingGenerator(400, 32, 16, 0.03, 0.03, 0.02, 300, 0.0, 0, seed).write(index, broker);
        Path out = dir.resolve("out");
        List<String> args = args(index, broker, out, 10_000, 1000);
        args.add("--live");
        assertEquals(0, replay(args), "replay join --live exit code");
        JoinInputs inputs = JoinInputs.read(index, broker).valid();
        JoinOutputs expected = JoinOracle.expected(inputs.fragments(), inputs.brokers(), PARTITIONS, 10_000, 1000);
        assertEquals(w.brokerEvents(), expected.joined().size(), "one joined event per request (seed " + seed + ")");
        // event times shifted to now, all alike: rebased, the outputs are the replay's, times included
        JoinOutputs got = new JoinOutputs(
                        lines(out.resolve("joined.jsonl")),
                        lines(out.resolve("orphans.jsonl")),
                        lines(out.resolve("late.jsonl")))
                .rebased();
        JoinOutputs want = expected.rebased();
        assertSameLines(want.joined(), got.joined(), "joined.jsonl, rebased (seed " + seed + ")");
        assertSameLines(want.orphans(), got.orphans(), "orphans.jsonl, rebased (seed " + seed + ")");
        assertSameLines(want.late(), got.late(), "late.jsonl, rebased (seed " + seed + ")");
    }

    /**
     * The job's process is killed -9 halfway through the input and started again from its last
     * checkpoint or commit: the outputs must still be the oracle's, every request joined once. On Flink
     * (transactional outputs, read committed) line for line; on Samza the outputs written since the
     * last commit are written again, so its distinct lines must be the oracle's and each repeat the
     * same line. No late repeats in this traffic: a partition's lateness judgement starts again after
     * a restart, so a straggler read first after it may be judged differently (documented).
     */
    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void aJobKilledMidRunEndsWithTheCoresOutputs() {
        assertEndsWithTheCoresOutputs("--kill-at", repeatsOutputsAfterACrash(), "500ms");
    }

    /**
     * As above, the kill coming before the job's first checkpoint or commit (one every 4 minutes, after the kill): the
     * job starts again from nothing, its state too. On Samza this holds only with {@code
     * task.transactional.state.retain.existing.state=false}: by default a store with no commit yet is
     * restored whole from its changelog while the input is read again from its start, and every fragment
     * read again is counted as a duplicate.
     */
    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void aJobKilledBeforeItsFirstCommitEndsWithTheCoresOutputs() {
        assertEndsWithTheCoresOutputs("--kill-at", repeatsOutputsAfterACrash(), "240s");
    }

    /**
     * The broker is stopped and started again under the running job halfway through: the job must
     * reconnect by itself and end with the oracle's outputs (distinct lines where a retried write may
     * repeat one).
     */
    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void aBrokerRestartUnderTheJobEndsWithTheCoresOutputs() {
        assertEndsWithTheCoresOutputs("--broker-restart-at", repeatsOutputsAfterACrash(), "500ms");
    }

    /**
     * Outputs over {@code join.output.max-bytes} go to the dead letters (RECORD_TOO_LARGE, keyed by
     * request id, the output topic as source) and the job goes on: every request the oracle joins is
     * either sent, exactly as the oracle has it, or dead-lettered, never both and never lost.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void outputsOverTheSizeLimitAreDeadLetteredAndTheRestSent() throws IOException {
        long seed = Seeds.seed();
        Path index = dir.resolve("index.jsonl");
        Path broker = dir.resolve("broker.jsonl");
        new TrackingGenerator(400, 32, 16, 0.0, 0.0, 0.0, 300, 0.0, 30_000, seed).write(index, broker);
        Path out = dir.resolve("out");
        List<String> args = args(index, broker, out, 10_000, 1000);
        args.addAll(List.of("--set", "join.output.max-bytes=500"));
        assertEquals(0, replay(args), "replay join exit code");
        JoinInputs inputs = JoinInputs.read(index, broker).valid();
        JoinOutputs expected = JoinOracle.expected(inputs.fragments(), inputs.brokers(), PARTITIONS, 10_000, 1000);

        Set<String> sent = new TreeSet<>();
        for (String line : lines(out.resolve("joined.jsonl"))) {
            sent.add(JSON.readTree(line).get("requestId").asText());
        }
        Set<String> tooLarge = new TreeSet<>();
        for (String line : lines(out.resolve("dead-letters.jsonl"))) {
            JsonNode letter = JSON.readTree(line);
            assertEquals("RECORD_TOO_LARGE", letter.get("reason").asText(), line);
            assertTrue(letter.get("detail").asText().contains("join.output.max-bytes (500)"), line);
            assertEquals("tracking.joined", letter.path("source").path("topic").asText(), line);
            assertTrue(tooLarge.add(letter.get("key").asText()), "dead-lettered once: " + line);
        }
        assertTrue(!sent.isEmpty() && !tooLarge.isEmpty(), "the limit must split the outputs (seed " + seed + ")");
        Set<String> both = new TreeSet<>(sent);
        both.retainAll(tooLarge);
        assertEquals(Set.of(), both, "sent and dead-lettered");
        Set<String> all = new TreeSet<>(sent);
        all.addAll(tooLarge);
        List<String> want = new ArrayList<>();
        Set<String> joinedByCore = new TreeSet<>();
        for (String line : expected.joined()) {
            String requestId = JSON.readTree(line).get("requestId").asText();
            joinedByCore.add(requestId);
            if (sent.contains(requestId)) {
                want.add(line);
            }
        }
        assertEquals(joinedByCore, all, "every joined request sent or dead-lettered (seed " + seed + ")");
        assertSameLines(want, lines(out.resolve("joined.jsonl")), "joined.jsonl, the ones that fit");
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private static long afterEmission(JoinOutputs outputs) {
        return outputs.late().stream().filter(l -> l.contains("AFTER_EMISSION")).count();
    }

    /** Generated traffic with {@code fault} at half the input; the outputs compared with the oracle's. */
    private void assertEndsWithTheCoresOutputs(String fault, boolean mayRepeat, String checkpointInterval) {
        long seed = Seeds.seed();
        Path index = dir.resolve("index.jsonl");
        Path broker = dir.resolve("broker.jsonl");
        TrackingGenerator.Written w =
                new TrackingGenerator(6000, 32, 16, 0.03, 0.03, 0.02, 300, 0.0, 30_000, seed).write(index, broker);
        Path out = dir.resolve("out");
        List<String> args = args(index, broker, out, 10_000, 1000);
        args.addAll(List.of("--checkpoint-interval", checkpointInterval, fault, "0.5"));
        assertEquals(0, replay(args), "replay join " + fault + " exit code");
        JoinInputs inputs = JoinInputs.read(index, broker).valid();
        JoinOutputs expected = JoinOracle.expected(inputs.fragments(), inputs.brokers(), PARTITIONS, 10_000, 1000);
        assertEquals(w.brokerEvents(), expected.joined().size(), "one joined event per request (seed " + seed + ")");
        for (String file : List.of("joined.jsonl", "orphans.jsonl", "late.jsonl")) {
            List<String> want = file.startsWith("joined")
                    ? expected.joined()
                    : file.startsWith("orphans") ? expected.orphans() : expected.late();
            List<String> got = lines(out.resolve(file));
            if (mayRepeat) {
                assertSameLines(
                        List.copyOf(new TreeSet<>(want)), List.copyOf(new TreeSet<>(got)), file + " (distinct lines)");
            } else {
                assertSameLines(want, got, file + " (seed " + seed + ")");
            }
        }
    }

    private record Run(JoinOutputs expected, List<String> deadLetters) {}

    /** The engine's replay and the oracle, compared; the expected outputs and the engine's dead letters. */
    private Run runBoth(Path index, Path broker, long windowMillis, long latenessMillis) {
        Path out = dir.resolve("out");
        List<String> args = args(index, broker, out, windowMillis, latenessMillis);
        assertEquals(0, replay(args), "replay join exit code");

        JoinInputs inputs = JoinInputs.read(index, broker).valid();
        JoinOutputs expected =
                JoinOracle.expected(inputs.fragments(), inputs.brokers(), PARTITIONS, windowMillis, latenessMillis);
        assertSameLines(expected.joined(), lines(out.resolve("joined.jsonl")), "joined.jsonl");
        assertSameLines(expected.orphans(), lines(out.resolve("orphans.jsonl")), "orphans.jsonl");
        assertSameLines(expected.late(), lines(out.resolve("late.jsonl")), "late.jsonl");
        return new Run(expected, lines(out.resolve("dead-letters.jsonl")));
    }

    /** The arguments of a {@code replay join} of these files into {@code out}, in this test's work dir. */
    private List<String> args(Path index, Path broker, Path out, long windowMillis, long latenessMillis) {
        return new ArrayList<>(List.of(
                "--index",
                index.toString(),
                "--broker",
                broker.toString(),
                "--out-dir",
                out.toString(),
                "--window-ms",
                Long.toString(windowMillis),
                "--lateness-ms",
                Long.toString(latenessMillis),
                "--partitions",
                Integer.toString(PARTITIONS),
                "--work-dir",
                dir.resolve("work").toString()));
    }

    /** Equal line lists, or a failure that shows the first line that differs. */
    private static void assertSameLines(List<String> expected, List<String> actual, String what) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), what + ": line " + (i + 1));
        }
        assertEquals(expected.size(), actual.size(), what + ": line count");
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path copy(String name) throws IOException {
        Path file = dir.resolve(name);
        try (InputStream in = JoinConformanceSuite.class.getResourceAsStream("/scenarios/join/" + name)) {
            Files.copy(in, file);
        }
        return file;
    }
}
