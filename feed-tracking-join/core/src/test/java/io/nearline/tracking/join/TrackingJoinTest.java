package io.nearline.tracking.join;

import io.nearline.common.testkit.EngineNeutrality;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TrackingJoinTest {

    private static Events.Fragment fragment(String id, String node, long ts) {
        return new Events.Fragment(id, node, ts, List.of(new Events.ScoredDoc("doc-" + node, 0.5)));
    }

    private static Events.BrokerEvent broker(String id, long ts, String... fanout) {
        return new Events.BrokerEvent(id, ts, Set.of(fanout), "viewer-1", List.of("doc-a"), "model-7");
    }

    @Test
    void completeAsSoonAsEveryExpectedFragmentIsIn() {
        JoinHarness h = new JoinHarness(1000, 100);
        h.fragment(fragment("r1", "a", 10));
        h.broker(broker("r1", 12, "a", "b"));
        assertTrue(h.joined.isEmpty());
        h.fragment(fragment("r1", "b", 15));
        assertEquals(1, h.joined.size());
        Events.Joined j = h.joined.get(0);
        assertTrue(j.complete());
        assertEquals(Set.of(), j.missing());
        assertEquals(2, j.fragments().size());
    }

    @Test
    void partialWhenTheWindowClosesWithTheMissingNodes() {
        JoinHarness h = new JoinHarness(1000, 100);
        h.broker(broker("r1", 10, "a", "b", "c"));
        h.fragment(fragment("r1", "a", 20));
        h.fragment(fragment("other", "x", 1200)); // moves the watermark past r1's window
        assertEquals(1, h.joined.size());
        assertFalse(h.joined.get(0).complete());
        assertEquals(Set.of("b", "c"), h.joined.get(0).missing());
    }

    @Test
    void fragmentsWithoutABrokerAreOrphans() {
        JoinHarness h = new JoinHarness(1000, 100);
        h.fragment(fragment("r1", "a", 10));
        h.fragment(fragment("r1", "b", 11));
        h.endOfInput();
        assertTrue(h.joined.isEmpty());
        assertEquals(List.of(new Events.Orphan("r1", new TreeSet<>(Set.of("a", "b")))), h.orphans);
        assertEquals(0, h.liveStates());
    }

    @Test
    void duplicatesAreDroppedAndCountedAndLateEventsNeverJoinTwice() {
        JoinHarness h = new JoinHarness(1000, 100);
        h.fragment(fragment("r1", "a", 10));
        h.fragment(fragment("r1", "a", 11));
        h.broker(broker("r1", 12, "a"));
        assertEquals(1, h.joined.get(0).duplicatesDropped());
        h.fragment(fragment("r1", "a", 13));
        h.broker(broker("r1", 14, "a"));
        assertEquals(1, h.joined.size());
        assertEquals(2, h.late.size());
        h.endOfInput();
        assertEquals(0, h.liveStates());
    }

    /**
     * Random requests, fan-outs up to 16, dropped and duplicated fragments, broker events before or
     * after the fragments, bounded disorder, late repeats, requests without a broker: exactly one
     * joined event per request with a broker, complete exactly when no expected fragment was dropped,
     * orphans exactly for the rest, late events only after emission, and no state left at the end.
     */
    @Property(tries = 200)
    void oneJoinedEventPerRequestWhateverTheArrivalOrder(@ForAll long seed, @ForAll @IntRange(min = 1, max = 40) int requests) {
        Random random = new Random(seed);
        long window = 1000;
        long disorder = 80;
        JoinHarness h = new JoinHarness(window, disorder);
        List<Object[]> arrivals = new ArrayList<>(); // {arrivalOrderKey, event}
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
                arrivals.add(new Object[] {ts + random.nextInt((int) disorder), new Events.BrokerEvent(id, ts, fanout, "v", List.of(), "m")});
                withBroker.add(id);
                expectedMissing.put(id, missing);
                if (!delivered.isEmpty() && random.nextInt(5) == 0) {
                    // a delivered node's fragment again, delayed far beyond the window (its event time stays old)
                    arrivals.add(new Object[] {t0 + 3 * window, fragment(id, delivered.iterator().next(), t0 + 10)});
                }
            } else if (!delivered.isEmpty()) {
                orphanNodes.put(id, delivered);
            }
        }
        arrivals.sort(Comparator.comparingLong(a -> (Long) a[0]));
        for (Object[] a : arrivals) {
            if (a[1] instanceof Events.Fragment f) {
                h.fragment(f);
            } else {
                h.broker((Events.BrokerEvent) a[1]);
            }
        }
        h.endOfInput();

        Map<String, Events.Joined> byId = new HashMap<>();
        for (Events.Joined j : h.joined) {
            assertTrue(byId.put(j.requestId(), j) == null, "two joined events for " + j.requestId() + " (seed " + seed + ")");
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
    }

    @Test
    void theJoinKnowsNoEngine() {
        EngineNeutrality.check("io.nearline.tracking.join");
    }
}
