package io.nearline.tracking.join;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the join holds for one request: events waiting for the watermark, then the broker event and
 * fragments applied so far, counts, and the event times that drive it. After emission only a marker
 * remains (to recognise late events) until cleanup. Mutable; owned by the join; stored by the
 * engine through {@link RequestStateCodec}.
 */
public final class RequestState {

    /** An input event waiting for the watermark, with the processing time it arrived at. */
    public record Pending(Events.Input event, long arrivedAtMillis) {
    }

    static final long NO_WINDOW = Long.MIN_VALUE;

    final List<Pending> pending = new ArrayList<>();
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

    /** Event times at which the join wants {@link TrackingJoin#onTimer}: pending events, window close, cleanup. */
    public List<Long> timers(long windowMillis) {
        List<Long> times = new ArrayList<>();
        pending.forEach(p -> times.add(p.event().ts()));
        if (hasWindow()) {
            times.add(emitted ? windowEnd + windowMillis : windowEnd);
        }
        return times;
    }
}
