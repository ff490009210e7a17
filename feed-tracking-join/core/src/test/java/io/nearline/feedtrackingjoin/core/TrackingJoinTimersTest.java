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
package io.nearline.feedtrackingjoin.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * What the join asks of an engine's timers, counted with in-memory ports: a request complete before its
 * window closes takes back its window's timer, so it fires twice (its slice, its marker's cleanup)
 * instead of three times, except where a waiting event's slice shares the time; and an engine that
 * fires a taken-back time anyway gets the same output, as the port allows.
 */
class TrackingJoinTimersTest {

    private static final long WINDOW = 1_000;

    /** The join over maps, its timers in {@link InMemoryTimers}, every firing and output recorded. */
    private static final class Run implements JoinPorts.State, JoinPorts.Pending, JoinPorts.Timers, JoinPorts.Output {
        final boolean honoursDelete;
        final Map<String, RequestState> states = new HashMap<>();
        final Map<String, List<RequestState.Pending>> waiting = new HashMap<>();
        final InMemoryTimers timers = new InMemoryTimers();
        final List<String> firings = new ArrayList<>();
        final List<String> output = new ArrayList<>();
        final TrackingJoin join = new TrackingJoin(WINDOW, JoinSettings.EmitComplete.WATERMARK, this, this, this, this);
        long watermark = Long.MIN_VALUE;

        Run(boolean honoursDelete) {
            this.honoursDelete = honoursDelete;
        }

        void advance(long to) {
            watermark = to;
            timers.fireUpTo(to, (id, time) -> {
                firings.add(id + "@" + time);
                join.onTimer(id, time);
            });
        }

        @Override
        public Optional<RequestState> get(String id) {
            return Optional.ofNullable(states.get(id));
        }

        @Override
        public void put(String id, RequestState s) {
            states.put(id, s);
        }

        @Override
        public void remove(String id) {
            states.remove(id);
        }

        @Override
        public void add(String id, RequestState.Pending p) {
            waiting.computeIfAbsent(id, k -> new ArrayList<>()).add(p);
        }

        @Override
        public List<RequestState.Pending> takeUpTo(String id, long time) {
            RequestState.Split split = RequestState.Split.of(waiting.getOrDefault(id, List.of()), time);
            waiting.put(id, new ArrayList<>(split.rest()));
            return split.due();
        }

        @Override
        public void register(String id, long time) {
            timers.register(id, time);
        }

        @Override
        public void delete(String id, long time) {
            if (honoursDelete) {
                timers.delete(id, time);
            }
        }

        @Override
        public long currentWatermark() {
            return watermark;
        }

        @Override
        public void joined(Events.Joined j, long arrival) {
            output.add("JOINED " + j.requestId() + " complete=" + j.complete() + " missing=" + j.missing()
                    + " duplicates=" + j.duplicatesDropped());
        }

        @Override
        public void orphan(Events.Orphan o) {
            output.add("ORPHAN " + o.requestId() + " " + o.nodes());
        }

        @Override
        public void late(Events.Late l) {
            output.add("LATE " + l);
        }
    }

    private static Events.Fragment fragment(String id, String node, long ts) {
        return new Events.Fragment(id, node, ts, List.of());
    }

    private static Events.BrokerEvent broker(String id, long ts, String... fanout) {
        return new Events.BrokerEvent(id, ts, Set.of(fanout), "viewer", List.of(), "m1");
    }

    @Test
    void aRequestCompleteBeforeItsWindowClosesFiresTwice() {
        Run run = new Run(true);
        run.join.onEvent(fragment("r", "a", 1_001), 0);
        run.join.onEvent(fragment("r", "b", 1_002), 0);
        run.join.onEvent(broker("r", 1_003, "a", "b"), 0);
        run.advance(10_000);
        assertEquals(List.of("JOINED r complete=true missing=[] duplicates=0"), run.output);
        assertEquals(List.of("r@1050", "r@3001"), run.firings, "its slice, then its marker's cleanup");
        assertTrue(run.states.isEmpty(), "nothing left");
    }

    @Test
    void aRequestItsWindowClosesOnFiresThrice() {
        Run run = new Run(true);
        run.join.onEvent(fragment("r", "a", 1_001), 0);
        run.join.onEvent(broker("r", 1_003, "a", "b"), 0);
        run.advance(10_000);
        assertEquals(List.of("JOINED r complete=false missing=[b] duplicates=0"), run.output);
        assertEquals(List.of("r@1050", "r@2001", "r@3001"), run.firings);
    }

    @Test
    void aWindowCloseOnASliceEndIsKeptForTheEventsWaitingThere() {
        Run run = new Run(true);
        run.join.onEvent(fragment("r", "a", 1_000), 0); // the window closes at 2000, a slice end
        run.join.onEvent(broker("r", 1_000, "a"), 0);
        run.join.onEvent(fragment("r", "a", 1_990), 0); // a repeat, late after the emission, due at 2000
        run.advance(10_000);
        assertEquals(2, run.output.size(), run.output.toString());
        assertTrue(run.output.get(1).startsWith("LATE"), run.output.toString());
        assertTrue(run.firings.contains("r@2000"), "not taken back: " + run.firings);
    }

    /**
     * Random requests (fragments and broker events within and past their window, repeats, out of order)
     * give the same output whether the engine honours the join's take-backs or fires them anyway.
     */
    @Property(tries = 200)
    void anEngineThatFiresATakenBackTimeGetsTheSameOutput(@ForAll long seed) {
        Random random = new Random(seed);
        List<Events.Input> events = new ArrayList<>();
        for (int r = 0; r < 20; r++) {
            String id = "r" + r;
            long start = 1_000 + random.nextInt(5_000);
            List<String> fanout = List.of("a", "b", "c").subList(0, 1 + random.nextInt(3));
            if (random.nextInt(5) > 0) {
                events.add(broker(id, start + random.nextInt(300), fanout.toArray(String[]::new)));
            }
            for (String node : fanout) {
                if (random.nextInt(6) > 0) {
                    events.add(fragment(id, node, start + random.nextInt((int) (WINDOW * 3 / 2))));
                }
            }
        }
        Collections.shuffle(events, random);
        Run honouring = new Run(true);
        Run ignoring = new Run(false);
        for (Run run : List.of(honouring, ignoring)) {
            long clock = 0;
            for (Events.Input e : events) {
                run.join.onEvent(e, 0);
                clock = Math.max(clock, e.ts());
                run.advance(clock - 400);
            }
            run.advance(Long.MAX_VALUE - 1);
        }
        List<String> expected = new ArrayList<>(ignoring.output);
        List<String> actual = new ArrayList<>(honouring.output);
        Collections.sort(expected);
        Collections.sort(actual);
        assertEquals(expected, actual, "seed " + seed);
        assertTrue(honouring.firings.size() <= ignoring.firings.size(), "seed " + seed);
        assertTrue(honouring.states.isEmpty() && ignoring.states.isEmpty(), "seed " + seed);
    }
}
