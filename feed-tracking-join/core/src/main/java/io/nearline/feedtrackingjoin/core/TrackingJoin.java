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
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The per-request join (docs/semantics.md), engine-neutral: index nodes and the broker report a request
 * asynchronously; the broker event names the nodes it fanned out to.
 *
 * <p>Events are applied to their request in event-time order, once the watermark has passed them
 * (an engine's watermark trails the newest event time by the allowed lateness). That costs about
 * the allowed lateness in latency and buys determinism: as long as each input partition stays
 * within the allowed lateness, the output depends only on the events, not on how an engine
 * interleaved its inputs, so a replay on any engine gives the same output as the live run.
 *
 * <ul>
 *   <li>A request's window opens at its earliest event and lasts {@code windowMillis} of event time.</li>
 *   <li>Exactly one joined event per request that has a broker event in its window: as soon as the
 *       broker event and every expected fragment are applied (complete), else when the window closes
 *       (partial, listing the missing nodes).</li>
 *   <li>Fragments with no broker event by the window's close go to the orphan output.</li>
 *   <li>A repeated fragment (same node) or broker event is dropped and counted.</li>
 *   <li>Events after a request's emission go to the late output. The marker that recognises them
 *       lives one more window; an event later than that starts the request anew.</li>
 *   <li>An event behind the watermark when it arrives goes to the late output at once (the engine
 *       reports events behind their own partition's lateness bound through {@link #onLate}).</li>
 *   <li>At end of input the engine advances the watermark to the end of time: everything is flushed.</li>
 * </ul>
 *
 * <p>With {@link JoinSettings.EmitComplete#EAGER} events are applied as they arrive instead: a
 * request is emitted complete the moment its broker event and last expected fragment are in, without
 * waiting for the watermark. Windows still close on the watermark (a window runs from the earliest
 * event applied, moved earlier if an older event arrives), so partial joins and orphans are the same
 * as by default. What arrival order can change: which repeat of an event counts as the duplicate,
 * and whether a repeat that arrives after a complete emission is counted in {@code duplicatesDropped}
 * or sent to the late output ({@code AFTER_EMISSION}); see docs/semantics.md.
 */
public final class TrackingJoin {

    /**
     * Same event time: broker first, then fragments by node; repeats by their whole content (the costly
     * part, only for repeats), so that identical repeats come in any order.
     */
    private static final Comparator<RequestState.Pending> EVENT_ORDER = (a, b) -> {
        int c = Long.compare(a.event().ts(), b.event().ts());
        if (c != 0) {
            return c;
        }
        if (a.event() instanceof Events.Fragment fa && b.event() instanceof Events.Fragment fb) {
            c = fa.node().compareTo(fb.node());
            return c != 0 ? c : TrackingText.format(fa).compareTo(TrackingText.format(fb));
        }
        if (a.event() instanceof Events.Fragment) {
            return 1;
        }
        if (b.event() instanceof Events.Fragment) {
            return -1;
        }
        return TrackingText.format((Events.BrokerEvent) a.event())
                .compareTo(TrackingText.format((Events.BrokerEvent) b.event()));
    };

    /**
     * Pending events ask to be applied at the end of their slice of this much event time, not at
     * their own time: a request's events (close together) share one timer instead of one each, which
     * was a fifth of the join's time on Flink. Applying later changes nothing but latency (events are
     * applied in event-time order whenever the watermark passes them), and costs at most this much.
     */
    static final long PENDING_SLICE_MILLIS = 50;

    private final long windowMillis;
    private final boolean eager;
    private final JoinPorts.State state;
    private final JoinPorts.Pending pending;
    private final JoinPorts.Timers timers;
    private final JoinPorts.Output output;

    public TrackingJoin(
            long windowMillis,
            JoinSettings.EmitComplete emitComplete,
            JoinPorts.State state,
            JoinPorts.Pending pending,
            JoinPorts.Timers timers,
            JoinPorts.Output output) {
        if (windowMillis <= 0) {
            throw new IllegalArgumentException("window must be > 0 ms");
        }
        this.windowMillis = windowMillis;
        this.eager = emitComplete == JoinSettings.EmitComplete.EAGER;
        this.state = state;
        this.pending = pending;
        this.timers = timers;
        this.output = output;
    }

    /**
     * An event that arrived at processing time {@code arrivedAtMillis}: held until the watermark passes
     * it, or applied at once when eager.
     */
    public void onEvent(Events.Input event, long arrivedAtMillis) {
        if (event.ts() <= timers.currentWatermark()) {
            onLate(event, Events.LateReason.BEHIND_WATERMARK);
            return;
        }
        RequestState.Pending p = new RequestState.Pending(event, arrivedAtMillis);
        if (eager) {
            applyNow(p);
            return;
        }
        pending.add(event.requestId(), p); // no state read per event
        timers.register(event.requestId(), sliceEnd(event.ts()));
    }

    /**
     * {@link #onEvent} for an engine that has the event in its stored form
     * ({@link RequestStateCodec#encode(RequestState.Pending)}) with its request and event time beside
     * it: decoded only when it is applied now (eager) or is late, else stored as it is.
     */
    public void onEncodedEvent(String requestId, long ts, byte[] encoded) {
        if (eager || ts <= timers.currentWatermark()) {
            RequestState.Pending p = RequestStateCodec.decodePending(encoded);
            onEvent(p.event(), p.arrivedAtMillis());
            return;
        }
        pending.addEncoded(requestId, encoded);
        timers.register(requestId, sliceEnd(ts));
    }

    /**
     * The end of the slice of event time that {@code ts} is in (see {@link #PENDING_SLICE_MILLIS}): the
     * timer a pending event at {@code ts} asks for, also when an engine rebuilds its timers.
     */
    public static long sliceEnd(long ts) {
        long rest = Math.floorMod(ts, PENDING_SLICE_MILLIS);
        return rest == 0 || ts > Long.MAX_VALUE - PENDING_SLICE_MILLIS ? ts : ts - rest + PENDING_SLICE_MILLIS;
    }

    /** Eager: one event applied as it arrives, the window closed first if the event is past it. */
    private void applyNow(RequestState.Pending p) {
        String requestId = p.event().requestId();
        RequestState s = state.get(requestId).orElseGet(RequestState::new);
        if (s.hasWindow() && !s.emitted && s.windowEnd <= p.event().ts()) {
            close(requestId, s);
        }
        s = renewIfExpired(s, p.event().ts());
        apply(requestId, s, p);
        state.put(requestId, s);
    }

    /** An event the engine found too late to use (see {@link InputClock}). */
    public void onLate(Events.Input event, Events.LateReason reason) {
        output.late(Events.Late.of(event, reason));
    }

    /**
     * The watermark passed {@code time}, a time {@code requestId} asked for: apply everything of the
     * request the watermark has passed, in event-time order, and close its window if that passed too.
     */
    public void onTimer(String requestId, long time) {
        long upTo = Math.max(time, timers.currentWatermark());
        List<RequestState.Pending> due = new ArrayList<>(pending.takeUpTo(requestId, upTo));
        RequestState s = state.get(requestId).orElse(null);
        if (s == null && due.isEmpty()) {
            return; // an earlier call with a later watermark did the work
        }
        if (s == null) {
            s = new RequestState();
        }
        boolean changed = !due.isEmpty(); // most timers find nothing to do: then nothing is written
        due.sort(EVENT_ORDER);
        for (RequestState.Pending p : due) {
            if (s.hasWindow() && !s.emitted && s.windowEnd <= p.event().ts()) {
                close(requestId, s);
            }
            s = renewIfExpired(s, p.event().ts());
            apply(requestId, s, p);
        }
        if (s.hasWindow() && !s.emitted && s.windowEnd <= upTo) {
            close(requestId, s);
            changed = true;
        }
        RequestState renewed = renewIfExpired(s, upTo);
        if (!changed && renewed == s) {
            return;
        }
        s = renewed;
        if (s.hasWindow()) {
            state.put(requestId, s);
        } else {
            state.remove(requestId);
        }
    }

    /** Past an emitted request's cleanup time its marker goes; a later event starts the request anew. */
    private RequestState renewIfExpired(RequestState s, long time) {
        return s.emitted && time >= s.windowEnd + windowMillis ? new RequestState() : s;
    }

    private void apply(String requestId, RequestState s, RequestState.Pending p) {
        Events.Input event = p.event();
        if (!s.hasWindow()) {
            s.windowEnd = event.ts() + windowMillis;
            timers.register(requestId, s.windowEnd);
        }
        if (s.emitted) {
            onLate(event, Events.LateReason.AFTER_EMISSION);
            return;
        }
        if (event.ts() + windowMillis < s.windowEnd) { // eager: an older event arrived later; by default never
            s.windowEnd = event.ts() + windowMillis;
            timers.register(requestId, s.windowEnd);
        }
        boolean repeat;
        if (event instanceof Events.Fragment f) {
            repeat = s.fragments.putIfAbsent(f.node(), f) != null;
        } else {
            repeat = s.broker != null;
            if (!repeat) {
                s.broker = (Events.BrokerEvent) event;
            }
        }
        if (repeat) {
            s.duplicates++;
            return;
        }
        s.lastNeededTs = Math.max(s.lastNeededTs, event.ts());
        s.lastNeededArrival = Math.max(s.lastNeededArrival, p.arrivedAtMillis());
        if (s.broker != null && s.fragments.keySet().containsAll(s.broker.fanout())) {
            emit(requestId, s, event.ts());
            // complete before its window closes: the close would find nothing to do, and each firing reads
            // the request's state; kept where a waiting event's slice asked for the same time
            if (sliceEnd(s.windowEnd) != s.windowEnd) {
                timers.delete(requestId, s.windowEnd);
            }
        }
    }

    /** The window closed before the request was complete. */
    private void close(String requestId, RequestState s) {
        if (s.broker != null) {
            emit(requestId, s, s.windowEnd);
        } else {
            output.orphan(new Events.Orphan(requestId, new ArrayList<>(s.fragments.values())));
            markEmitted(requestId, s);
        }
    }

    private void emit(String requestId, RequestState s, long at) {
        Set<String> missing = new TreeSet<>(s.broker.fanout());
        missing.removeAll(s.fragments.keySet());
        output.joined(
                new Events.Joined(
                        requestId,
                        s.broker,
                        new ArrayList<>(s.fragments.values()),
                        missing.isEmpty(),
                        missing,
                        Math.max(0, at - s.lastNeededTs),
                        s.duplicates),
                s.lastNeededArrival);
        markEmitted(requestId, s);
    }

    /** Keep only a marker that recognises late events, for one more window. */
    private void markEmitted(String requestId, RequestState s) {
        s.emitted = true;
        s.broker = null;
        s.fragments.clear();
        timers.register(requestId, s.windowEnd + windowMillis);
    }
}
