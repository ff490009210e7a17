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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.jobs.cluster.ClusterException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DrillVerdictTest {

    private static final Verdict.Checked NO_DIVERGENCE = keys(500, 0);
    private static final Verdict.Checks CLEAN = new Verdict.Checks(12_000, 12_000, 0, NO_DIVERGENCE, 20.0, "RUNNING");

    private static Verdict.Checked keys(long checked, long divergent) {
        return new Verdict.Checked(checked, divergent, null, null, null, null, null, null, "");
    }

    private static Verdict.Checked joins(long requests, long once, long twice, long lost) {
        return new Verdict.Checked(null, null, requests, once, twice, lost, 3L, Map.of("joinedMissing", 0L), "");
    }

    @TempDir
    Path dir;

    /** A kill-node whose effect was proven and which YARN reported LOST after {@code detection} s (null: never). */
    static Verdict.FaultOutcome applied(Double detection) {
        return new Verdict.FaultOutcome(
                "kill-node", "node-2", true, "instance stopped", 25, 50.0, lost(detection), proven(), 30.0, null);
    }

    private static FaultLife.Detection lost(Double seconds) {
        return new FaultLife.Detection(
                List.of("yarn:node-lost"),
                seconds == null ? null : "yarn:node-lost",
                seconds,
                seconds == null ? Map.of() : Map.of("yarn:node-lost", seconds));
    }

    private static Effect proven() {
        Effect.Expectation e = Effect.expectation(
                new Drill.Fault(Drill.Kind.KILL_NODE, Duration.ZERO, Duration.ofSeconds(25), null, 0, Duration.ZERO),
                "couchbase");
        return Effect.of(
                e,
                Probe.Reading.of(2),
                Probe.Reading.none("timed out"),
                Probe.Reading.none("timed out"),
                Probe.Reading.of(3),
                12.0);
    }

    /**
     * A slow link's upload that does not finish in time read at most its bound: in effect while the link
     * is narrow, and the same bound after the heal is no restored baseline.
     */
    @Test
    void anUploadCutOffByASlowLinkIsBoundedNotMissing() {
        Effect.Expectation slow = new Effect.Expectation("upload", "kbit/s", Effect.Change.NARROWER, 256);
        Probe.Reading before = Probe.Reading.of(87_000);
        Probe.Reading cutOff = Probe.Reading.atMost(26.2, "the upload did not finish in 20 s");
        assertTrue(cutOff.answered() && cutOff.bound());
        assertEquals(
                List.of(),
                Effect.of(slow, before, Probe.Reading.of(34), cutOff, before, 3.0)
                        .reasons());
        assertEquals(
                1,
                Effect.of(slow, before, Probe.Reading.of(34), cutOff, cutOff, null)
                        .reasons()
                        .size());
        // no figure at all is still no effect
        assertEquals(
                1,
                Effect.of(slow, before, Probe.Reading.none("no route"), null, before, 3.0)
                        .reasons()
                        .size());
    }

    @Test
    void aSlowLinkWhoseBaselineUploadTimedOutProvesNothing() {
        Effect.Expectation slow = new Effect.Expectation("upload", "kbit/s", Effect.Change.NARROWER, 256);
        Probe.Reading timedOut = Probe.Reading.atMost(26.2, "the upload did not finish in 20 s");
        Effect e = Effect.of(slow, timedOut, timedOut, timedOut, timedOut, null);
        assertFalse(e.proven());
        assertTrue(e.reasons().get(0).startsWith("no baseline"), e.reasons().toString());
        // control: measured before and after, bounded in place
        assertTrue(Effect.of(slow, Probe.Reading.of(87_000), timedOut, timedOut, Probe.Reading.of(90_000), 2.0)
                .proven());
        // relative to the baseline: a link that was barely faster than the limit before is not "slowed"
        assertFalse(Effect.of(
                        slow,
                        Probe.Reading.of(600),
                        Probe.Reading.of(500),
                        Probe.Reading.of(500),
                        Probe.Reading.of(600),
                        2.0)
                .proven());
    }

    @Test
    void aDelayAppliedOneWayIsNotInEffect() {
        Effect.Expectation delay = new Effect.Expectation("round trip", "ms", Effect.Change.SLOWER, 200);
        Probe.Reading quiet = Probe.Reading.ofWays(0.4, 0.2, 0.2);
        Probe.Reading oneWay = Probe.Reading.ofWays(200.6, 200.4, 0.2);
        Probe.Reading bothWays = Probe.Reading.ofWays(400.6, 200.4, 200.2);
        Effect e = Effect.of(delay, quiet, oneWay, oneWay, quiet, 1.0);
        assertTrue(
                e.reasons().get(0).startsWith("no measurable effect"),
                e.reasons().toString());
        assertTrue(Effect.of(delay, quiet, bothWays, bothWays, quiet, 1.0).proven(), "control");
        // a round trip as long as both ways' delay, but all of it one way, is still one way
        assertFalse(Effect.of(delay, quiet, Probe.Reading.ofWays(400.6, 400.4, 0.2), bothWays, quiet, 1.0)
                .proven());
    }

    @Test
    void halfTheLossIsNotTheFault() {
        Effect.Expectation lossy = new Effect.Expectation("datagrams lost", "%", Effect.Change.LOSSIER, 10);
        Probe.Reading clean = Probe.Reading.ofWays(0, 0.0, 0.0);
        Probe.Reading half = Probe.Reading.ofWays(5, 2.5, 2.6);
        Probe.Reading full = Probe.Reading.ofWays(19, 9.8, 10.2);
        assertTrue(
                Effect.of(lossy, clean, half, half, clean, 1.0).reasons().get(0).startsWith("no measurable effect"));
        assertTrue(Effect.of(lossy, clean, full, full, clean, 1.0).proven(), "control");
        // applied one way only
        assertFalse(Effect.of(lossy, clean, Probe.Reading.ofWays(10, 10.0, 0.0), full, clean, 1.0)
                .proven());
    }

    @Test
    void aLinkThatPassesNothingIsNotLossy() {
        Effect.Expectation lossy = new Effect.Expectation("datagrams lost", "%", Effect.Change.LOSSIER, 10);
        Probe.Reading clean = Probe.Reading.ofWays(0, 0.0, 0.0);
        // nothing came back: the probe has no figure; nothing arrived: no way down to measure
        assertFalse(Effect.of(lossy, clean, Probe.Reading.none("no datagram came back"), null, clean, 1.0)
                .proven());
        assertFalse(Effect.of(lossy, clean, new Probe.Reading(100.0, null, 100.0, null), null, clean, 1.0)
                .proven());
        // everything arrived and nothing came back
        assertFalse(Effect.of(lossy, clean, new Probe.Reading(100.0, null, 0.0, 100.0), null, clean, 1.0)
                .proven());
    }

    @Test
    void aRunWhoseFaultWasAppliedAndWhoseInvariantsHeldIsValid() {
        assertEquals(List.of(), Verdict.reasons(List.of(applied(9.5)), Duration.ofSeconds(11), CLEAN));
    }

    @Test
    void aFaultThatWasNeverAppliedMakesTheRunInvalidHoweverCleanTheCache() {
        Verdict.FaultOutcome never = new Verdict.FaultOutcome(
                "delayed-link",
                "-",
                false,
                "--delay needs the kernel's netem scheduler",
                25,
                50.0,
                null,
                null,
                null,
                null);
        List<String> why = Verdict.reasons(List.of(never), null, CLEAN);
        assertEquals(1, why.size(), why.toString());
        assertTrue(why.get(0).startsWith("delayed-link was never applied: --delay needs"), why.get(0));
        assertTrue(Verdict.reasons(List.of(), null, CLEAN).contains("no fault was scheduled"));
    }

    @Test
    void eachBrokenInvariantIsNamed() {
        assertTrue(Verdict.reasons(List.of(applied(12.4)), Duration.ofSeconds(11), CLEAN)
                .get(0)
                .contains("not noticed within 11 s (yarn:node-lost after 12.4 s)"));
        // the drill's own load fell behind 5 s in (behindSeconds), but YARN never said LOST: not noticed
        Verdict.FaultOutcome onlyBehind = applied(null).withBehind(5.0);
        assertEquals(
                List.of("kill-node on node-2: the system under test never showed yarn:node-lost (not noticed)"),
                Verdict.reasons(List.of(onlyBehind), Duration.ofSeconds(11), CLEAN));
        Verdict.Checks diverged = new Verdict.Checks(12_000, 12_000, 0, keys(500, 3), 20.0, "RUNNING");
        assertEquals(
                List.of("3 divergent keys after the drain"), Verdict.reasons(List.of(applied(9.0)), null, diverged));
        Verdict.Checks lostLoad = new Verdict.Checks(12_000, 11_990, 10, NO_DIVERGENCE, 20.0, "RUNNING");
        assertTrue(Verdict.reasons(List.of(applied(9.0)), null, lostLoad).get(0).startsWith("the load was not all"));
        Verdict.Checks stuck = new Verdict.Checks(12_000, 12_000, 0, NO_DIVERGENCE, null, "FAILED");
        assertEquals(2, Verdict.reasons(List.of(applied(9.0)), null, stuck).size());
        Verdict.FaultOutcome unhealed =
                new Verdict.FaultOutcome("kill-node", "node-2", true, "x", 25, 50.0, lost(9.0), proven(), null, "no");
        assertTrue(Verdict.reasons(List.of(unhealed), null, CLEAN).get(0).contains("could not be healed"));
    }

    @Test
    void theJoinIsValidOnlyWhenEveryRequestWithABrokerEventIsJoinedExactlyOnce() {
        Verdict.Checks once = new Verdict.Checks(15_000, 15_000, 0, joins(14_850, 14_850, 0, 0), 12.0, "RUNNING");
        assertEquals(List.of(), Verdict.reasons(List.of(applied(9.0)), null, once), "identical repeats are removed");
        Verdict.Checks lost = new Verdict.Checks(15_000, 15_000, 0, joins(14_850, 14_848, 0, 2), 12.0, "RUNNING");
        assertEquals(
                List.of("2 requests with a broker event never joined"),
                Verdict.reasons(List.of(applied(9.0)), null, lost));
        // every request joined once, but one join's contents are not the oracle's
        Verdict.Checked wrongContents = new Verdict.Checked(
                null, null, 14_850L, 14_850L, 0L, 0L, 0L, Map.of("joinedMissing", 1L, "joinedUnexpected", 1L), "");
        List<String> why = Verdict.reasons(
                List.of(applied(9.0)), null, new Verdict.Checks(15_000, 15_000, 0, wrongContents, 12.0, "RUNNING"));
        assertEquals(1, why.size(), why.toString());
        assertTrue(why.get(0).startsWith("2 outputs differ from the join oracle's"), why.get(0));
        Verdict.Checks twice = new Verdict.Checks(15_000, 15_000, 0, joins(14_850, 14_849, 1, 0), 12.0, "RUNNING");
        assertEquals(
                List.of("1 requests joined more than once, differently"),
                Verdict.reasons(List.of(applied(9.0)), null, twice));
    }

    @Test
    void recoveryIsTimedFromTheHealToWhenTheBacklogStaysUnderOneSecondOfLoad() {
        List<double[]> history = List.of(
                new double[] {19, 20}, // steady before the fault at 20 s
                new double[] {20, 30},
                new double[] {21, 150}, // still under one second of load (200/s): not behind yet
                new double[] {22, 400},
                new double[] {23, Double.NaN}, // the store did not answer: counted as behind
                new double[] {30, 1500},
                new double[] {38, 150},
                new double[] {39, 10});
        assertEquals(8.0, Verdict.recoverySeconds(history, 20, 30, 200));
        assertEquals(0.0, Verdict.recoverySeconds(history.subList(0, 3), 20, 20, 200), "never behind");
        assertNull(Verdict.recoverySeconds(history.subList(0, 6), 20, 30, 200), "still behind at the end");
    }

    @Test
    void everyShippedDrillReadsAndTheCatalogueIsComplete() {
        List<Drill> drills = Drill.all(Path.of("../../" + Drill.FOLDER));
        assertEquals(
                List.of(Drill.Kind.values()).stream()
                        .map(Drill.Kind::label)
                        .sorted()
                        .toList(),
                drills.stream().map(Drill::name).toList());
        for (Drill d : drills) {
            assertEquals(d.name(), d.faults().get(0).kind().label(), "each drill is named after its fault");
            if (d.faults().get(0).kind().losesNode()) {
                assertEquals(Duration.ofSeconds(11), d.detectWithin(), d.name());
            }
        }
    }

    @Test
    void aMisspeltKeyOrAFaultOutlastingTheLoadIsRefusedNamingIt() throws IOException {
        Path typo = Files.writeString(
                dir.resolve("typo.yaml"),
                "load: {rate: 10, seconds: 60}\nfaults:\n" + "  - {kind: kill-node, at: 10s, fro: 5s}\n");
        assertTrue(assertThrows(ClusterException.class, () -> Drill.read(typo))
                .getMessage()
                .contains("unknown key 'fro'"));
        Path late = Files.writeString(
                dir.resolve("late.yaml"),
                "load: {rate: 10, seconds: 60}\nfaults:\n" + "  - {kind: kill-node, at: 50s, for: 20s}\n");
        assertTrue(assertThrows(ClusterException.class, () -> Drill.read(late))
                .getMessage()
                .contains("must be over before the load ends"));
        Path kind = Files.writeString(
                dir.resolve("kind.yaml"),
                "load: {rate: 10, seconds: 60}\nfaults:\n" + "  - {kind: kill-everything, at: 10s}\n");
        assertTrue(assertThrows(ClusterException.class, () -> Drill.read(kind))
                .getMessage()
                .contains("no fault kind 'kill-everything'"));
    }
}
