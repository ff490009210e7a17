package io.nearline.tracking.join;

import java.util.ArrayList;
import java.util.Set;
import java.util.TreeSet;

/**
 * The per-request join of DESIGN §2, engine-neutral: index nodes and the broker report a request
 * asynchronously; the broker event names the nodes it fanned out to.
 *
 * <ul>
 *   <li>Exactly one joined event per request that has a broker event: emitted as soon as the broker
 *       event and every expected fragment are in (complete), else when the request's window closes in
 *       event time (partial, listing the missing nodes).</li>
 *   <li>Fragments with no broker event by the window's close go to the orphan output.</li>
 *   <li>A repeated fragment (same node) or broker event is dropped and counted.</li>
 *   <li>Anything arriving for an emitted request goes to the late output, never a second joined event.
 *       The marker that recognises them lives one more window, then the state is removed; after that,
 *       an event whose window closed before the current watermark is late by its own event time.</li>
 *   <li>The window starts at the request's first event time; timers fire in event time, so a replay
 *       reproduces the same output. At end of input the engine fires every timer (flush).</li>
 * </ul>
 */
public final class TrackingJoin {

    private final long windowMillis;
    private final JoinPorts.State state;
    private final JoinPorts.Timers timers;
    private final JoinPorts.Output output;

    public TrackingJoin(long windowMillis, JoinPorts.State state, JoinPorts.Timers timers, JoinPorts.Output output) {
        if (windowMillis <= 0) {
            throw new IllegalArgumentException("window must be > 0 ms");
        }
        this.windowMillis = windowMillis;
        this.state = state;
        this.timers = timers;
        this.output = output;
    }

    public void onFragment(Events.Fragment f) {
        RequestState s = open(f.requestId(), f.ts());
        if (s == null || s.emitted) {
            output.late(new Events.Late(f.requestId(), "fragment", f.node(), f.ts()));
            return;
        }
        if (s.fragments.containsKey(f.node())) {
            s.duplicates++;
        } else {
            s.fragments.put(f.node(), f);
            s.lastArrival = Math.max(s.lastArrival, f.ts());
        }
        afterChange(f.requestId(), s);
    }

    public void onBroker(Events.BrokerEvent b) {
        RequestState s = open(b.requestId(), b.ts());
        if (s == null || s.emitted) {
            output.late(new Events.Late(b.requestId(), "broker", null, b.ts()));
            return;
        }
        if (s.broker != null) {
            s.duplicates++;
        } else {
            s.broker = b;
            s.lastArrival = Math.max(s.lastArrival, b.ts());
        }
        afterChange(b.requestId(), s);
    }

    /** An event-time timer of {@code requestId} fired at {@code time}: the window closed, or cleanup is due. */
    public void onTimer(String requestId, long time) {
        RequestState s = state.get(requestId).orElse(null);
        if (s == null) {
            return;
        }
        if (s.emitted) {
            if (time >= s.windowEnd + windowMillis) {
                state.remove(requestId);
            }
            return;
        }
        if (time < s.windowEnd) {
            return; // an earlier timer of a request whose window moved on
        }
        if (s.broker == null) {
            output.orphan(new Events.Orphan(requestId, new TreeSet<>(s.fragments.keySet())));
            state.remove(requestId);
            return;
        }
        emit(requestId, s, time);
    }

    /** The request's state, a new one for a first event, or null when the event's window closed long ago. */
    private RequestState open(String requestId, long ts) {
        RequestState s = state.get(requestId).orElse(null);
        if (s == null) {
            if (ts + windowMillis <= timers.currentWatermark()) {
                return null; // its window closed before the watermark: late, whatever became of the request
            }
            s = new RequestState();
            s.firstSeen = ts;
            s.windowEnd = ts + windowMillis;
            timers.register(requestId, s.windowEnd);
        }
        return s;
    }

    private void afterChange(String requestId, RequestState s) {
        if (s.broker != null && s.fragments.keySet().containsAll(s.broker.fanout())) {
            emit(requestId, s, s.lastArrival);
        } else {
            state.put(requestId, s);
        }
    }

    private void emit(String requestId, RequestState s, long at) {
        Set<String> missing = new TreeSet<>(s.broker.fanout());
        missing.removeAll(s.fragments.keySet());
        output.joined(new Events.Joined(requestId, s.broker, new ArrayList<>(s.fragments.values()), missing.isEmpty(),
                missing, Math.max(0, at - s.lastArrival), s.duplicates));
        // keep a marker to recognise late events for one more window, then clean up
        RequestState marker = new RequestState();
        marker.emitted = true;
        marker.windowEnd = s.windowEnd;
        state.put(requestId, marker);
        timers.register(requestId, s.windowEnd + windowMillis);
    }
}
