package io.nearline.tracking.join;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the join holds for one request: the broker event and fragments so far, counts, and the event
 * times that drive it. After emission only a marker remains (to recognise late events) until cleanup.
 * Mutable; owned by the join.
 */
public final class RequestState {

    Events.BrokerEvent broker;
    final Map<String, Events.Fragment> fragments = new LinkedHashMap<>();
    int duplicates;
    long firstSeen = Long.MAX_VALUE;
    long lastArrival = Long.MIN_VALUE;
    long windowEnd;
    boolean emitted;

    public boolean emitted() {
        return emitted;
    }

    public long windowEnd() {
        return windowEnd;
    }
}
