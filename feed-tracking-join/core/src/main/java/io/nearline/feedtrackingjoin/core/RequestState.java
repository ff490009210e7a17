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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the join holds for one request once its first event was applied: the broker event and
 * fragments so far, counts, and the event times that drive it (events still waiting for the
 * watermark are kept apart, see {@link JoinPorts.Pending}). After emission only a marker
 * remains (to recognise late events) until cleanup. Mutable; owned by the join; stored by the
 * engine through {@link RequestStateCodec}.
 */
public final class RequestState {

    /** An input event waiting for the watermark, with the processing time it arrived at. */
    public record Pending(Events.Input event, long arrivedAtMillis) {}

    /** Pending events split at an event time: those at or before it (due), and the rest. */
    public record Split(List<Pending> due, List<Pending> rest) {
        public static Split of(Iterable<Pending> pending, long time) {
            List<Pending> due = new ArrayList<>();
            List<Pending> rest = new ArrayList<>();
            pending.forEach(p -> (p.event().ts() <= time ? due : rest).add(p));
            return new Split(due, rest);
        }
    }

    static final long NO_WINDOW = Long.MIN_VALUE;

    Events.BrokerEvent broker;
    final Map<String, Events.Fragment> fragments = new TreeMap<>();
    int duplicates;
    long windowEnd = NO_WINDOW;
    long lastNeededTs = Long.MIN_VALUE;
    long lastNeededArrival = Long.MIN_VALUE;
    boolean emitted;

    boolean hasWindow() {
        return windowEnd != NO_WINDOW;
    }

    public boolean emitted() {
        return emitted;
    }

    /** The events this state holds (the broker event and fragments applied so far): for measuring its cost. */
    public List<Events.Input> held() {
        List<Events.Input> held = new ArrayList<>(fragments.values());
        if (broker != null) {
            held.add(broker);
        }
        return held;
    }

    /**
     * The event time at which the join next wants {@link TrackingJoin#onTimer} for this state: the
     * window's close, or the marker's cleanup (for an engine that rebuilds its timers from the store).
     */
    public long nextTimer(long windowMillis) {
        return emitted ? windowEnd + windowMillis : windowEnd;
    }
}
