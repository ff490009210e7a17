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

import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.feedtrackingjoin.core.JoinPartitions;
import io.nearline.feedtrackingjoin.core.TrackingText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the join must output for a replay of given inputs, derived from the semantics in
 * feed-tracking-join/README.md and written apart from the join core: no watermark, timers, slices,
 * pending buffers or stored state, only the rules applied to the whole input at once (it shares the
 * event records, their text form and the partition function). The conformance
 * suite, {@code bench join} and the deploy IT check the engines against it, so a bug in the core that
 * both engines share still shows; a test holds the engine-less reference ({@link CoreJoinReplay}) to it
 * too.
 *
 * <p>The rules, for the default emission ({@code join.emit-complete=watermark}; compare eager runs
 * with {@link JoinOutputs#repeatsFolded()}) and a bounded replay (no partition counted idle):
 * <ol>
 *   <li>Each input partition (topic and partition; a request's events go to the same partition number
 *       of both topics) keeps the files' order. An event more than the allowed lateness older than the
 *       newest event before it in its partition is late, {@code BEHIND_PARTITION}.</li>
 *   <li>The other events of a request are taken in event-time order (at equal times the broker event
 *       first, then fragments by node, then by their text).</li>
 *   <li>The first opens a window of {@code window} from its time. An event at or past the window's end
 *       closes it first: a partial joined event when the broker event is in, else an orphan of the
 *       fragments.</li>
 *   <li>A repeat (a second fragment of a node, a second broker event) is counted in
 *       {@code duplicatesDropped}; the first is kept.</li>
 *   <li>The event that brings the broker event and every node of its fan-out together emits the
 *       request complete.</li>
 *   <li>After the emission, events earlier than the window's end plus one more window are late,
 *       {@code AFTER_EMISSION}; a later one starts the request anew.</li>
 *   <li>At the end of the input every open window closes.</li>
 * </ol>
 * Dead letters are the replay's concern: give valid events only.
 */
public final class JoinOracle {

    private JoinOracle() {}

    public static JoinOutputs expected(
            List<Events.Fragment> index,
            List<Events.BrokerEvent> broker,
            int partitions,
            long windowMillis,
            long allowedLatenessMillis) {
        List<Events.Late> late = new ArrayList<>();
        Map<String, List<Events.Input>> inTime = new HashMap<>();
        for (List<? extends Events.Input> topic : List.of(index, broker)) {
            Map<Integer, Long> newest = new HashMap<>();
            for (Events.Input e : topic) {
                int partition = JoinPartitions.of(e.requestId(), partitions);
                Long before = newest.get(partition);
                if (before != null && e.ts() < before - allowedLatenessMillis) {
                    late.add(Events.Late.of(e, Events.LateReason.BEHIND_PARTITION));
                } else {
                    inTime.computeIfAbsent(e.requestId(), r -> new ArrayList<>())
                            .add(e);
                }
                newest.merge(partition, e.ts(), Math::max);
            }
        }
        List<Events.Joined> joined = new ArrayList<>();
        List<Events.Orphan> orphans = new ArrayList<>();
        inTime.forEach((requestId, events) -> {
            events.sort(EVENT_TIME_ORDER);
            Request r = null;
            for (Events.Input e : events) {
                if (r != null && !r.emitted && e.ts() >= r.windowEnd) {
                    r.close(joined, orphans);
                }
                if (r == null || (r.emitted && e.ts() >= r.windowEnd + windowMillis)) {
                    r = new Request(requestId, e.ts() + windowMillis);
                }
                if (r.emitted) {
                    late.add(Events.Late.of(e, Events.LateReason.AFTER_EMISSION));
                } else {
                    r.take(e, joined);
                }
            }
            if (r != null && !r.emitted) {
                r.close(joined, orphans);
            }
        });
        return JoinOutputs.of(joined, orphans, late);
    }

    /** One request from its first event on: what it holds until it is emitted. */
    private static final class Request {
        final String requestId;
        final long windowEnd;
        final Map<String, Events.Fragment> fragments = new TreeMap<>(); // node order, as the output lists them
        Events.BrokerEvent broker;
        int repeats;
        long lastNeeded = Long.MIN_VALUE;
        boolean emitted;

        Request(String requestId, long windowEnd) {
            this.requestId = requestId;
            this.windowEnd = windowEnd;
        }

        void take(Events.Input e, List<Events.Joined> joined) {
            boolean repeat =
                    e instanceof Events.Fragment f ? fragments.putIfAbsent(f.node(), f) != null : broker != null;
            if (repeat) {
                repeats++;
                return;
            }
            if (e instanceof Events.BrokerEvent b) {
                broker = b;
            }
            lastNeeded = Math.max(lastNeeded, e.ts());
            if (broker != null && fragments.keySet().containsAll(broker.fanout())) {
                joined.add(joinedAt(e.ts()));
                emitted = true;
            }
        }

        void close(List<Events.Joined> joined, List<Events.Orphan> orphans) {
            if (broker != null) {
                joined.add(joinedAt(windowEnd));
            } else {
                orphans.add(new Events.Orphan(requestId, new ArrayList<>(fragments.values())));
            }
            emitted = true;
        }

        Events.Joined joinedAt(long at) {
            Set<String> missing = new TreeSet<>(broker.fanout());
            missing.removeAll(fragments.keySet());
            return new Events.Joined(
                    requestId,
                    broker,
                    new ArrayList<>(fragments.values()),
                    missing.isEmpty(),
                    missing,
                    Math.max(0, at - lastNeeded),
                    repeats);
        }
    }

    private static final Comparator<Events.Input> EVENT_TIME_ORDER = Comparator.<Events.Input>comparingLong(
                    Events.Input::ts)
            .thenComparing(e -> e instanceof Events.Fragment ? 1 : 0)
            .thenComparing(e -> e instanceof Events.Fragment f ? f.node() : "")
            .thenComparing(JoinOracle::text);

    private static String text(Events.Input e) {
        return e instanceof Events.Fragment f ? TrackingText.format(f) : TrackingText.format((Events.BrokerEvent) e);
    }
}
