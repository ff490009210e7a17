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
package io.nearline.localcluster.joinreference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.feedtrackingjoin.core.TrackingText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class TrackingJoinTest {

    private static final String IN = "in";

    private static Events.Fragment fragment(String id, String node, long ts) {
        return new Events.Fragment(id, node, ts, List.of(new Events.ScoredDoc("doc-" + node, 0.5)));
    }

    private static Events.BrokerEvent broker(String id, long ts, String... fanout) {
        return new Events.BrokerEvent(id, ts, new TreeSet<>(Set.of(fanout)), "viewer-1", List.of("doc-a"), "model-7");
    }

    /** One input; the watermark trails its newest event time by the lateness (and 1 ms). */
    private static LocalJoin join(long window, long lateness) {
        LocalJoin join = new LocalJoin(window, lateness);
        join.expect(IN);
        return join;
    }

    @Test
    void completeOnceTheWatermarkPassesTheSliceOfTheLastExpectedFragment() {
        LocalJoin h = join(1000, 100);
        h.offer(IN, fragment("r1", "a", 10));
        h.offer(IN, broker("r1", 12, "a", "b"));
        h.offer(IN, fragment("r1", "b", 15));
        h.offer(IN, fragment("other", "x", 116));
        assertTrue(h.joined.isEmpty(), "the watermark (15) passed the events, not yet the end of their slice (50)");
        h.offer(IN, fragment("other", "y", 151));
        assertEquals(1, h.joined.size());
        Events.Joined j = h.joined.get(0);
        assertTrue(j.complete());
        assertEquals(Set.of(), j.missing());
        assertEquals(
                List.of("a", "b"),
                j.fragments().stream().map(Events.Fragment::node).toList());
        assertEquals(0, j.joinLatencyMillis());
    }

    @Test
    void partialWhenTheWindowClosesWithTheMissingNodes() {
        LocalJoin h = join(1000, 100);
        h.offer(IN, broker("r1", 10, "a", "b", "c"));
        h.offer(IN, fragment("r1", "a", 20));
        h.offer(IN, fragment("other", "x", 1111)); // watermark 1010: r1's window [10, 1010) closed
        assertEquals(1, h.joined.size());
        assertFalse(h.joined.get(0).complete());
        assertEquals(Set.of("b", "c"), h.joined.get(0).missing());
        assertEquals(990, h.joined.get(0).joinLatencyMillis(), "from the last event needed (20) to the close (1010)");
    }

    @Test
    void anEventAtTheWindowsEndIsOutsideIt() {
        LocalJoin h = join(1000, 100);
        h.offer(IN, broker("r1", 10, "a"));
        h.offer(IN, fragment("r1", "a", 1010));
        h.end(IN);
        assertEquals(1, h.joined.size());
        assertFalse(h.joined.get(0).complete());
        assertEquals(
                List.of(Events.LateReason.AFTER_EMISSION),
                h.late.stream().map(Events.Late::reason).toList());
    }

    @Test
    void fragmentsWithoutABrokerAreOrphansAndLaterEventsLate() {
        LocalJoin h = join(1000, 100);
        h.offer(IN, fragment("r1", "a", 10));
        h.offer(IN, fragment("r1", "b", 11));
        h.offer(IN, fragment("x", "a", 1200));
        assertEquals(
                List.of(Set.of("a", "b")),
                h.orphans.stream().map(Events.Orphan::nodes).toList());
        h.offer(IN, broker("r1", 1150, "a", "b")); // within allowed lateness, after the orphaning
        h.end(IN);
        assertTrue(h.joined.stream().noneMatch(j -> j.requestId().equals("r1")));
        assertEquals(
                List.of(Events.LateReason.AFTER_EMISSION),
                h.late.stream().map(Events.Late::reason).toList());
        assertEquals(0, h.liveStates());
    }

    @Test
    void duplicatesAreDroppedAndCountedAndEventsAfterEmissionAreLate() {
        LocalJoin h = join(1000, 100);
        h.offer(IN, fragment("r1", "a", 10));
        h.offer(IN, fragment("r1", "a", 11));
        h.offer(IN, broker("r1", 12, "a"));
        h.offer(IN, fragment("r1", "a", 13));
        h.offer(IN, broker("r1", 14, "a"));
        h.end(IN);
        assertEquals(1, h.joined.size());
        assertEquals(1, h.joined.get(0).duplicatesDropped());
        assertEquals(2, h.late.size());
        assertTrue(h.late.stream().allMatch(l -> l.reason() == Events.LateReason.AFTER_EMISSION));
        assertEquals(0, h.liveStates());
    }

    @Test
    void anEventBeyondTheAllowedLatenessOfItsPartitionIsLate() {
        LocalJoin h = join(1000, 100);
        h.offer(IN, broker("r1", 500, "a"));
        h.offer(IN, fragment("r1", "a", 399)); // 101 ms older than the partition's newest
        h.end(IN);
        assertEquals(List.of(new Events.Late("r1", "fragment", "a", 399, Events.LateReason.BEHIND_PARTITION)), h.late);
        assertFalse(h.joined.get(0).complete());
    }

    @Test
    void anEventLaterThanTheMarkerStartsTheRequestAnew() {
        LocalJoin h = join(1000, 100);
        h.offer(IN, broker("r1", 0, "a"));
        h.offer(IN, fragment("r1", "a", 1));
        h.offer(IN, broker("r1", 2000, "b")); // the marker lived until 2000
        h.end(IN);
        assertEquals(2, h.joined.size());
    }

    @Test
    void arrivalOrderWithinTheLatenessDoesNotMatter() {
        List<Events.Input> events = List.of(
                fragment("r1", "a", 10),
                fragment("r1", "a", 12),
                broker("r1", 11, "a", "b"),
                fragment("r1", "b", 14),
                fragment("r1", "b", 30),
                broker("r1", 15, "a", "b"));
        String expected = null;
        for (long seed = 0; seed < 50; seed++) {
            List<Events.Input> shuffled = new ArrayList<>(events);
            Collections.shuffle(shuffled, new Random(seed));
            LocalJoin h = join(1000, 100);
            shuffled.forEach(e -> h.offer(IN, e));
            h.end(IN);
            String out = JoinOutputs.of(h.joined, h.orphans, h.late).toString();
            if (expected == null) {
                expected = out;
            }
            assertEquals(expected, out, "arrival order " + shuffled);
        }
    }

    /**
     * Random requests, fan-outs up to 16, dropped and duplicated fragments, broker events before or
     * after the fragments, bounded disorder, repeats long after, requests without a broker:
     * exactly one joined event per request with a broker, complete exactly when no expected fragment
     * was dropped, orphans exactly for the rest, late events only for emitted requests, no state left.
     * And the determinism the engines rely on: for any split into partitions, every order of reading
     * them gives the same outputs.
     */
    @Property(tries = 200)
    void oneJoinedEventPerRequestWhateverTheArrivalOrder(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 40) int requests) {
        Random random = new Random(seed);
        long window = 1000;
        long disorder = 80;
        List<Object[]> arrivals = new ArrayList<>(); // {arrival time, event}
        Map<String, Set<String>> expectedMissing = new HashMap<>();
        Set<String> withBroker = new HashSet<>();
        Map<String, Set<String>> orphanNodes = new HashMap<>();
        for (int r = 0; r < requests; r++) {
            String id = "req-" + r;
            long t0 = r * 200L;
            int fan = 1 + random.nextInt(16);
            Set<String> fanout = new TreeSet<>();
            while (fanout.size() < fan) {
                fanout.add("node-" + random.nextInt(20));
            }
            boolean hasBroker = random.nextInt(10) != 0;
            Set<String> missing = new TreeSet<>();
            Set<String> delivered = new TreeSet<>();
            for (String node : fanout) {
                if (random.nextInt(10) == 0) {
                    missing.add(node);
                    continue;
                }
                delivered.add(node);
                long ts = t0 + random.nextInt(50);
                arrivals.add(new Object[] {ts + random.nextInt((int) disorder), fragment(id, node, ts)});
                if (random.nextInt(10) == 0) {
                    arrivals.add(new Object[] {ts + random.nextInt((int) disorder), fragment(id, node, ts)});
                }
            }
            if (hasBroker) {
                long ts = t0 + random.nextInt(50);
                arrivals.add(new Object[] {
                    ts + random.nextInt((int) disorder), new Events.BrokerEvent(id, ts, fanout, "v", List.of(), "m")
                });
                withBroker.add(id);
                expectedMissing.put(id, missing);
                if (!delivered.isEmpty() && random.nextInt(5) == 0) {
                    // a delivered node's fragment again, delayed far beyond the window (its event time stays old)
                    arrivals.add(new Object[] {
                        t0 + 3 * window, fragment(id, delivered.iterator().next(), t0 + 10)
                    });
                }
            } else if (!delivered.isEmpty()) {
                orphanNodes.put(id, delivered);
            }
        }
        arrivals.sort(Comparator.comparingLong(a -> (Long) a[0]));
        LocalJoin h = join(window, 100);
        List<Events.Fragment> index = new ArrayList<>();
        List<Events.BrokerEvent> brokers = new ArrayList<>();
        for (Object[] a : arrivals) {
            h.offer(IN, (Events.Input) a[1]);
            if (a[1] instanceof Events.Fragment f) {
                index.add(f);
            } else {
                brokers.add((Events.BrokerEvent) a[1]);
            }
        }
        h.end(IN);

        Map<String, Events.Joined> byId = new HashMap<>();
        for (Events.Joined j : h.joined) {
            assertTrue(
                    byId.put(j.requestId(), j) == null,
                    "two joined events for " + j.requestId() + " (seed " + seed + ")");
        }
        assertEquals(withBroker, byId.keySet(), "seed " + seed);
        for (String id : withBroker) {
            Events.Joined j = byId.get(id);
            assertEquals(expectedMissing.get(id), j.missing(), id + " seed " + seed);
            assertEquals(expectedMissing.get(id).isEmpty(), j.complete(), id + " seed " + seed);
        }
        Map<String, Set<String>> orphans = new HashMap<>();
        h.orphans.forEach(o -> orphans.put(o.requestId(), o.nodes()));
        assertEquals(orphanNodes, orphans, "seed " + seed);
        for (Events.Late l : h.late) {
            assertTrue(byId.containsKey(l.requestId()), "late event for a request never joined (seed " + seed + ")");
        }
        assertEquals(0, h.liveStates(), "state left behind (seed " + seed + ")");

        JoinOutputs single = JoinOutputs.of(h.joined, h.orphans, h.late);
        for (int partitions : new int[] {1, 2, 4}) {
            JoinOutputs first = CoreJoinReplay.run(index, brokers, partitions, window, 100, new Random(seed));
            JoinOutputs second = CoreJoinReplay.run(index, brokers, partitions, window, 100, new Random(~seed));
            String what = partitions + " partitions (seed " + seed + ")";
            assertSameLines(first.joined(), second.joined(), what + ", joined, read in two orders");
            assertSameLines(first.orphans(), second.orphans(), what + ", orphans, read in two orders");
            assertSameLines(first.late(), second.late(), what + ", late, read in two orders");
            // which requests join and how does not depend on the split; a far-delayed repeat may count
            // as the duplicate or the original (the earlier event time wins), or be late
            assertSameLines(classification(single.joined()), classification(first.joined()), what);
            assertSameLines(single.orphans(), first.orphans(), what);
        }
    }

    private static List<String> classification(List<String> joined) {
        return joined.stream().map(l -> l.replaceAll(",\"fragments\".*", "")).toList();
    }

    /** Equal line lists, or a failure that shows the first line that differs (not both lists). */
    static void assertSameLines(List<String> expected, List<String> actual, String what) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), what + ": line " + i);
        }
        assertEquals(expected.size(), actual.size(), what + ": line count");
    }

    /**
     * An engine that loses its timers and clock on a restart (Samza) and rebuilds the timers from the
     * store ends with the same outputs as a run without the restart, wherever the restart falls.
     */
    @Property(tries = 50)
    void aRestartThatRebuildsTimersFromTheStoreChangesNothing(@ForAll long seed) throws Exception {
        Path dir = Files.createTempDirectory("join-restart");
        try {
            TrackingGenerator.Written w = new TrackingGenerator(60, 12, 8, 0.1, 0.1, 0.1, 80, 0, 0, seed)
                    .write(dir.resolve("i"), dir.resolve("b"));
            List<Events.Input> arrivals = new ArrayList<>();
            Files.readAllLines(dir.resolve("i")).forEach(l -> arrivals.add(TrackingText.fragment(l)));
            Files.readAllLines(dir.resolve("b")).forEach(l -> arrivals.add(TrackingText.broker(l)));
            arrivals.sort(Comparator.comparingLong(Events.Input::ts)); // one input, within the lateness
            int restartAt = new Random(seed).nextInt(arrivals.size() + 1);
            LocalJoin straight = join(500, 200);
            LocalJoin restarted = join(500, 200);
            for (int i = 0; i < arrivals.size(); i++) {
                if (i == restartAt) {
                    restarted.restart();
                }
                straight.offer(IN, arrivals.get(i));
                restarted.offer(IN, arrivals.get(i));
            }
            straight.end(IN);
            restarted.end(IN);
            assertEquals(
                    JoinOutputs.of(straight.joined, straight.orphans, straight.late),
                    JoinOutputs.of(restarted.joined, restarted.orphans, restarted.late),
                    "restart before event " + restartAt);
            assertEquals(w.brokerEvents(), restarted.joined.size());
            assertEquals(0, restarted.liveStates());
        } finally {
            try (var files = Files.list(dir)) {
                files.forEach(f -> f.toFile().delete());
            }
            Files.delete(dir);
        }
    }

    @Test
    void eagerEmitsACompleteJoinAsItsLastEventArrivesAndWindowsStillCloseOnTheWatermark() {
        LocalJoin h = new LocalJoin(1000, 100, JoinSettings.EmitComplete.EAGER, System::currentTimeMillis);
        h.expect(IN);
        h.offer(IN, fragment("r1", "b", 15));
        h.offer(IN, broker("r1", 12, "a", "b"));
        h.offer(IN, fragment("r2", "x", 20));
        assertTrue(h.joined.isEmpty(), "r1 waits for a");
        h.offer(IN, fragment("r1", "a", 10)); // older than the first event: the window moves to 10..1010
        assertEquals(1, h.joined.size(), "complete at once, without waiting for the watermark");
        assertTrue(h.joined.get(0).complete());
        assertEquals(0, h.joined.get(0).joinLatencyMillis());
        h.offer(IN, fragment("r1", "a", 10));
        assertEquals(1, h.late.size(), "a repeat after the emission is late");
        assertEquals(Events.LateReason.AFTER_EMISSION, h.late.get(0).reason());

        h.offer(IN, broker("r3", 30, "c", "d"));
        h.offer(IN, fragment("r3", "c", 30));
        h.offer(IN, fragment("r4", "e", 1129));
        assertEquals(1, h.joined.size(), "r3 is partial: it waits for its window to close");
        h.offer(IN, fragment("r4", "e", 1131)); // the watermark passes 1030, r3's window end
        assertEquals(2, h.joined.size());
        assertFalse(h.joined.get(1).complete());
        assertEquals(Set.of("d"), h.joined.get(1).missing());
        assertEquals(1, h.orphans.size(), "r2 orphaned when its window closed");
        h.end(IN);
        assertEquals(0, h.liveStates());
    }

    /**
     * Eager outputs depend on arrival order only in where a repeat is counted: folded
     * ({@link JoinOutputs#repeatsFolded()}), any arrival order gives the default mode's outputs.
     */
    @Property(tries = 50)
    void eagerOutputsFoldedAreTheDefaultOnesWhateverTheArrivalOrder(@ForAll long seed) throws Exception {
        Path dir = Files.createTempDirectory("join-eager");
        try {
            new TrackingGenerator(200, 12, 8, 0.1, 0.1, 0.1, 80, 0.02, 3000, seed)
                    .write(dir.resolve("i"), dir.resolve("b"));
            List<Events.Fragment> index = new ArrayList<>();
            List<Events.BrokerEvent> brokers = new ArrayList<>();
            Files.readAllLines(dir.resolve("i")).forEach(l -> index.add(TrackingText.fragment(l)));
            Files.readAllLines(dir.resolve("b")).forEach(l -> brokers.add(TrackingText.broker(l)));
            JoinOutputs byDefault = CoreJoinReplay.run(index, brokers, 2, 500, 200, new Random(seed))
                    .repeatsFolded();
            for (long order : new long[] {seed, ~seed}) {
                JoinOutputs eager = CoreJoinReplay.run(
                                index,
                                brokers,
                                2,
                                new LocalJoin(500, 200, JoinSettings.EmitComplete.EAGER, System::currentTimeMillis),
                                new Random(order))
                        .repeatsFolded();
                String what = "seed " + seed + ", order " + order;
                assertSameLines(byDefault.joined(), eager.joined(), what + ", joined");
                assertSameLines(byDefault.orphans(), eager.orphans(), what + ", orphans");
                assertSameLines(byDefault.late(), eager.late(), what + ", late");
            }
        } finally {
            try (var files = Files.list(dir)) {
                files.forEach(f -> f.toFile().delete());
            }
            Files.delete(dir);
        }
    }
}
