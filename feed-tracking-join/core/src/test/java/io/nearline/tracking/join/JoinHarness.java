package io.nearline.tracking.join;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The join on in-memory ports, driven the way an engine drives it: events in arrival order, a
 * watermark trailing the largest event time by {@code outOfOrderness}, event-time timers fired as it
 * passes them, and every timer fired at end of input.
 */
final class JoinHarness implements JoinPorts.State, JoinPorts.Timers, JoinPorts.Output {

    final List<Events.Joined> joined = new ArrayList<>();
    final List<Events.Orphan> orphans = new ArrayList<>();
    final List<Events.Late> late = new ArrayList<>();
    final List<String> emittedOrder = new ArrayList<>();
    private final Map<String, RequestState> states = new HashMap<>();
    private final TreeMap<Long, List<String>> timers = new TreeMap<>();
    private final long outOfOrderness;
    private long maxTs = Long.MIN_VALUE;
    final TrackingJoin join;

    JoinHarness(long windowMillis, long outOfOrderness) {
        this.outOfOrderness = outOfOrderness;
        this.join = new TrackingJoin(windowMillis, this, this, this);
    }

    void fragment(Events.Fragment f) {
        join.onFragment(f);
        advance(f.ts());
    }

    void broker(Events.BrokerEvent b) {
        join.onBroker(b);
        advance(b.ts());
    }

    private void advance(long ts) {
        maxTs = Math.max(maxTs, ts);
        fireUpTo(maxTs - outOfOrderness);
    }

    /** End of input: the watermark jumps to the end of time. */
    void endOfInput() {
        fireUpTo(Long.MAX_VALUE);
    }

    private void fireUpTo(long watermark) {
        if (watermark == Long.MAX_VALUE) {
            maxTs = Long.MAX_VALUE;
        }
        while (!timers.isEmpty() && timers.firstKey() <= watermark) {
            Map.Entry<Long, List<String>> due = timers.pollFirstEntry();
            for (String id : due.getValue()) {
                join.onTimer(id, due.getKey());
            }
        }
    }

    @Override
    public long currentWatermark() {
        return maxTs == Long.MIN_VALUE ? Long.MIN_VALUE : maxTs - outOfOrderness;
    }

    int liveStates() {
        return states.size();
    }

    @Override
    public Optional<RequestState> get(String requestId) {
        return Optional.ofNullable(states.get(requestId));
    }

    @Override
    public void put(String requestId, RequestState state) {
        states.put(requestId, state);
    }

    @Override
    public void remove(String requestId) {
        states.remove(requestId);
    }

    @Override
    public void register(String requestId, long eventTime) {
        timers.computeIfAbsent(eventTime, t -> new ArrayList<>()).add(requestId);
    }

    @Override
    public void joined(Events.Joined j) {
        joined.add(j);
        emittedOrder.add(j.requestId());
    }

    @Override
    public void orphan(Events.Orphan o) {
        orphans.add(o);
    }

    @Override
    public void late(Events.Late l) {
        late.add(l);
    }
}
