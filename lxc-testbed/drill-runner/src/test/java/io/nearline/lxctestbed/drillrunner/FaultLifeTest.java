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
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.jobs.cluster.ClusterException;
import io.nearline.lxctestbed.drillrunner.Probe.Reading;
import io.nearline.lxctestbed.testbed.TestbedHeal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The drill's rules for one fault, on a fake testbed: a fault counts as noticed only when the system
 * under test shows it, as applied only when its probe measures the effect, as healed only when the
 * probe reads normal again; and a fault that reached some nodes before failing is healed there.
 */
class FaultLifeTest {

    private static final FaultLife.Timing QUICK = new FaultLife.Timing(
            Duration.ofMillis(50),
            Duration.ofMillis(150),
            Duration.ofMillis(200),
            Duration.ofMillis(300),
            Duration.ofMillis(600),
            Duration.ofMillis(25));

    private static final Drill.Fault KILL_NODE =
            new Drill.Fault(Drill.Kind.KILL_NODE, Duration.ZERO, Duration.ofMillis(500), null, 0, Duration.ZERO);
    private static final Drill.Fault DELAY = new Drill.Fault(
            Drill.Kind.DELAYED_LINK, Duration.ZERO, Duration.ofMillis(500), null, 0, Duration.ofMillis(200));

    /** A testbed whose probe reads what {@code probe} says for the phase it is in, and whose signs are given. */
    static final class Fake implements FaultLife.Testbed {
        final Injector.Applied applies;
        final Function<String, Reading> probe; // by phase: before, in place, healed
        final Set<Signs.Sign> shows;
        final List<String> healedOn = new ArrayList<>();
        /** A node whose heal fails, as a node whose nftables refuses would; null: every heal succeeds. */
        String healFailsOn;

        volatile String phase = "before";

        Fake(Injector.Applied applies, Function<String, Reading> probe, Set<Signs.Sign> shows) {
            this.applies = applies;
            this.probe = probe;
            this.shows = shows;
        }

        @Override
        public Injector.Applied apply(Drill.Fault f) {
            phase = "in place";
            return applies;
        }

        @Override
        public void heal(Drill.Fault f, Injector.Applied applied) {
            // as the injector heals links: every node tried, the failures named after
            TestbedHeal.onEvery(List.of(applied.target().split(",")), "the links", node -> {
                if (node.equals(healFailsOn)) {
                    throw new ClusterException("nft: Operation not permitted");
                }
                healedOn.add(node);
            });
            phase = "healed";
        }

        @Override
        public Reading probe(Drill.Fault f, Injector.Applied applied) {
            return probe.apply(phase);
        }

        @Override
        public Signs.Source signs(Drill.Fault f, long startMillis) {
            return (sign, applied) -> shows.contains(sign) ? Optional.of(startMillis + 8_000) : Optional.empty();
        }

        @Override
        public String store() {
            return "couchbase";
        }
    }

    private static final Injector.Applied STOPPED = new Injector.Applied(true, "node-2", "instance stopped");
    private static final Injector.Applied DELAYED = new Injector.Applied(true, "node-1,node-2", "delay 200 ms");

    /** A link's round trip with no fault on it, and each way's part. */
    private static final Reading QUIET_LINK = Reading.ofWays(0.4, 0.2, 0.2);

    private static Reading unansweredInPlace(String phase) {
        return phase.equals("in place") ? Reading.none("timed out") : Reading.of(3);
    }

    private static List<String> reasons(Verdict.FaultOutcome f) {
        return Verdict.reasons(
                List.of(f),
                Duration.ofSeconds(11),
                new Verdict.Checks(
                        100,
                        100,
                        0,
                        new Verdict.Checked(100L, 0L, null, null, null, null, null, null, ""),
                        1.0,
                        "RUNNING"));
    }

    private static Verdict.FaultOutcome live(Fake fake, Drill.Fault f) {
        return new FaultLife(fake, QUICK, new ConcurrentHashMap<>()).live(f, System.nanoTime());
    }

    @Test
    void aNodeThatYarnReportsLostAndWhoseNodeManagerStopsAnsweringMakesAValidFault() {
        Verdict.FaultOutcome f =
                live(new Fake(STOPPED, FaultLifeTest::unansweredInPlace, Set.of(Signs.Sign.NODE_LOST)), KILL_NODE);
        assertEquals("yarn:node-lost", f.detectedBy());
        assertEquals(8.0, f.detectionSeconds(), "the system's own time of the sign");
        assertTrue(f.effect().proven(), f.effect().reasons().toString());
        assertEquals(List.of(), reasons(f));
    }

    @Test
    void aFaultNoticedOnlyByTheDrillsOwnLagIsNotNoticed() {
        Verdict.FaultOutcome f = live(new Fake(STOPPED, FaultLifeTest::unansweredInPlace, Set.of()), KILL_NODE)
                .withBehind(2.0);
        assertNull(f.detectedBy());
        assertEquals(
                List.of("kill-node on node-2: the system under test never showed yarn:node-lost (not noticed)"),
                reasons(f));
    }

    @Test
    void aLinkFaultWithNoMeasuredEffectIsInvalid() {
        Verdict.FaultOutcome f = live(new Fake(DELAYED, phase -> QUIET_LINK, Set.of()), DELAY);
        assertFalse(f.effect().proven());
        assertEquals(1, reasons(f).size(), reasons(f).toString());
        assertTrue(
                reasons(f).get(0).startsWith("delayed-link on node-1,node-2: no measurable effect"),
                reasons(f).get(0));
    }

    @Test
    void aDelayWhoseHelperDiedBeforeTheHealIsInvalid() {
        long[] probes = {0};
        Function<String, Reading> rtt = phase -> {
            if (!phase.equals("in place")) {
                return QUIET_LINK;
            }
            // the helper gone after the first
            return ++probes[0] == 1 ? Reading.ofWays(400.5, 200.2, 200.3) : QUIET_LINK;
        };
        Verdict.FaultOutcome f = live(new Fake(DELAYED, rtt, Set.of()), DELAY);
        assertTrue(
                reasons(f).get(0).contains("the effect did not last"),
                reasons(f).toString());
    }

    @Test
    void aHealThatDoesNotRestoreTheBaselineIsInvalid() {
        Function<String, Reading> neverBack = phase -> phase.equals("before") ? Reading.of(3) : Reading.none("refused");
        Verdict.FaultOutcome f = live(new Fake(STOPPED, neverBack, Set.of(Signs.Sign.NODE_LOST)), KILL_NODE);
        assertNull(f.effect().restoredSeconds());
        assertTrue(
                reasons(f).get(0).contains("the heal did not restore the baseline"),
                reasons(f).toString());
    }

    @Test
    void aFaultThatFailedHalfWayIsHealedOnEveryNodeItReached() {
        Injector.Applied half = new Injector.Applied(false, "node-1,node-2", "failed on node-2");
        Fake fake = new Fake(half, phase -> QUIET_LINK, Set.of());
        Map<Drill.Fault, Injector.Applied> unhealed = new ConcurrentHashMap<>();
        Verdict.FaultOutcome f = new FaultLife(fake, QUICK, unhealed).live(DELAY, System.nanoTime());
        assertEquals(List.of("node-1", "node-2"), fake.healedOn);
        assertTrue(unhealed.isEmpty(), "nothing left for an interrupt to heal");
        assertTrue(
                reasons(f).get(0).startsWith("delayed-link was never applied"),
                reasons(f).toString());
    }

    @Test
    void aHealThatFailsOnOneNodeHealsTheOthersNamesItAndKeepsTheFaultForTheRetry() {
        Injector.Applied three = new Injector.Applied(true, "node-1,node-2,node-3", "delay 200 ms");
        Fake fake = new Fake(three, phase -> QUIET_LINK, Set.of());
        fake.healFailsOn = "node-2";
        Map<Drill.Fault, Injector.Applied> unhealed = new ConcurrentHashMap<>();
        Verdict.FaultOutcome f = new FaultLife(fake, QUICK, unhealed).live(DELAY, System.nanoTime());
        assertEquals(List.of("node-1", "node-3"), fake.healedOn, "the nodes after the failed one are healed too");
        assertTrue(f.healError().contains("the links on node-2: nft: Operation not permitted"), f.healError());
        assertEquals(Set.of(DELAY), unhealed.keySet(), "kept for the retry at the end and on interrupt");
        assertTrue(
                reasons(f).stream().anyMatch(r -> r.contains("could not be healed") && r.contains("node-2")),
                reasons(f).toString());
    }

    @Test
    void aBaselineThatIsAlreadyFaultyProvesNothing() {
        Verdict.FaultOutcome f =
                live(new Fake(STOPPED, phase -> Reading.none("refused"), Set.of(Signs.Sign.NODE_LOST)), KILL_NODE);
        assertTrue(reasons(f).get(0).contains("no baseline"), reasons(f).toString());
    }
}
