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
import io.nearline.feedtrackingjoin.core.InMemoryTimers;
import io.nearline.feedtrackingjoin.core.InputClock;
import io.nearline.feedtrackingjoin.core.JoinPorts;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.feedtrackingjoin.core.RequestState;
import io.nearline.feedtrackingjoin.core.RequestStateCodec;
import io.nearline.feedtrackingjoin.core.TrackingCodec;
import io.nearline.feedtrackingjoin.core.TrackingJoin;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The join driven without an engine, as an engine drives it: events offered per input partition,
 * per-partition lateness and the watermark from an {@link InputClock} (no idleness: a local run
 * reads every input to its end), event-time timers fired in time order as the watermark passes
 * them, and everything flushed once every input has ended. The reference the engines are held to.
 */
public final class LocalJoin implements JoinPorts.State, JoinPorts.Pending, JoinPorts.Timers, JoinPorts.Output {

    public final List<Events.Joined> joined = new ArrayList<>();
    public final List<Events.Orphan> orphans = new ArrayList<>();
    public final List<Events.Late> late = new ArrayList<>();
    private final Map<String, RequestState> states = new HashMap<>();
    private final Map<String, List<RequestState.Pending>> pending = new HashMap<>();
    private final InMemoryTimers timers = new InMemoryTimers();
    private final long windowMillis;
    private final long allowedLatenessMillis;
    private final Set<String> inputs = new LinkedHashSet<>();
    private InputClock clock;
    private final TrackingJoin join;
    private final LongSupplier now;
    private long watermark = Long.MIN_VALUE;
    private final Set<String> ended = new HashSet<>();

    public LocalJoin(long windowMillis, long allowedLatenessMillis) {
        this(windowMillis, allowedLatenessMillis, System::currentTimeMillis);
    }

    public LocalJoin(long windowMillis, long allowedLatenessMillis, LongSupplier now) {
        this(windowMillis, allowedLatenessMillis, JoinSettings.EmitComplete.WATERMARK, now);
    }

    public LocalJoin(
            long windowMillis, long allowedLatenessMillis, JoinSettings.EmitComplete emitComplete, LongSupplier now) {
        this.windowMillis = windowMillis;
        this.allowedLatenessMillis = allowedLatenessMillis;
        this.clock = new InputClock(allowedLatenessMillis);
        this.join = new TrackingJoin(windowMillis, emitComplete, this, this, this, this);
        this.now = now;
    }

    /** An input partition that will be read: the watermark waits for it. */
    public void expect(String input) {
        inputs.add(input);
        clock.expect(input, now.getAsLong());
    }

    /**
     * What an engine that does not persist timers does when it restarts (Samza): the store survives
     * (here: every entry through its codec), timers and the clock do not. Timers are rebuilt from the
     * store, each request asking again for its next timer and its pending events' times; the clock
     * starts afresh and the watermark waits for every input again.
     */
    public void restart() {
        timers.clear();
        Map<String, RequestState> stored = new HashMap<>();
        states.forEach((id, s) -> stored.put(id, RequestStateCodec.decode(RequestStateCodec.encode(s))));
        states.clear();
        states.putAll(stored);
        Map<String, List<RequestState.Pending>> waiting = new HashMap<>();
        pending.forEach(
                (id, list) -> waiting.put(id, RequestStateCodec.decodeList(RequestStateCodec.encodeList(list))));
        pending.clear();
        pending.putAll(waiting);
        states.forEach((id, s) -> register(id, s.nextTimer(windowMillis)));
        pending.forEach((id, list) ->
                list.forEach(p -> register(id, TrackingJoin.sliceEnd(p.event().ts()))));
        clock = new InputClock(allowedLatenessMillis);
        watermark = Long.MIN_VALUE;
        inputs.forEach(input -> clock.expect(input, now.getAsLong()));
        ended.forEach(clock::end);
    }

    /**
     * The next event of {@code input}, in that input's order; handed over in its stored form, as Flink
     * does (Samza hands over the event: its conformance suite covers that way in).
     */
    public void offer(String input, Events.Input event) {
        long arrived = now.getAsLong();
        if (clock.admit(input, event.ts(), arrived)) {
            join.onEncodedEvent(
                    event.requestId(), event.ts(), RequestStateCodec.encode(new RequestState.Pending(event, arrived)));
        } else {
            join.onLate(event, Events.LateReason.BEHIND_PARTITION);
        }
        advance();
    }

    /** {@code input} has no more events. */
    public void end(String input) {
        ended.add(input);
        clock.end(input);
        advance();
    }

    private void advance() {
        watermark = clock.watermark(now.getAsLong());
        timers.fireUpTo(watermark, join::onTimer);
    }

    /**
     * What the join holds at one moment, in bytes as the engines store it: each entry's key (the
     * request id) and value, the request's state and each waiting event apart, as Flink's value and
     * list state keep them (Samza keeps the waiting events of a request in one value: the same bytes
     * less a key per event). {@code eventBytes} is the same events in their own Avro encoding, as
     * they came from the topics. A storage engine's own overhead per entry is not counted.
     */
    public record StateSize(
            int openRequests, int markers, int waitingEvents, long requestBytes, long waitingBytes, long eventBytes) {

        /** Everything stored: the requests' states (markers included) and the waiting events. */
        public long storedBytes() {
            return requestBytes + waitingBytes;
        }
    }

    public StateSize stateSize() {
        int open = 0;
        int markers = 0;
        int waiting = 0;
        long requestBytes = 0;
        long waitingBytes = 0;
        long events = 0;
        for (Map.Entry<String, RequestState> e : states.entrySet()) {
            requestBytes += keyBytes(e.getKey()) + RequestStateCodec.encode(e.getValue()).length;
            if (e.getValue().emitted()) {
                markers++;
            } else {
                open++;
            }
            for (Events.Input held : e.getValue().held()) {
                events += avroBytes(held);
            }
        }
        for (Map.Entry<String, List<RequestState.Pending>> e : pending.entrySet()) {
            for (RequestState.Pending p : e.getValue()) {
                waitingBytes += keyBytes(e.getKey()) + RequestStateCodec.encode(p).length;
                events += avroBytes(p.event());
                waiting++;
            }
        }
        return new StateSize(open, markers, waiting, requestBytes, waitingBytes, events);
    }

    private static int keyBytes(String requestId) {
        return requestId.getBytes(StandardCharsets.UTF_8).length;
    }

    private static int avroBytes(Events.Input e) {
        return e instanceof Events.Fragment f
                ? TrackingCodec.encode(f).length
                : TrackingCodec.encode((Events.BrokerEvent) e).length;
    }

    /** Requests still holding state or pending events: 0 once every input has ended. */
    public int liveStates() {
        Set<String> live = new HashSet<>(states.keySet());
        live.addAll(pending.keySet());
        return live.size();
    }

    @Override
    public void add(String requestId, RequestState.Pending event) {
        pending.computeIfAbsent(requestId, id -> new ArrayList<>()).add(event);
    }

    @Override
    public List<RequestState.Pending> takeUpTo(String requestId, long time) {
        List<RequestState.Pending> all = pending.remove(requestId);
        if (all == null) {
            return List.of();
        }
        RequestState.Split split = RequestState.Split.of(all, time);
        if (!split.rest().isEmpty()) {
            pending.put(requestId, split.rest());
        }
        return split.due();
    }

    @Override
    public long currentWatermark() {
        return watermark;
    }

    @Override
    public void register(String requestId, long eventTime) {
        timers.register(requestId, eventTime);
    }

    @Override
    public void delete(String requestId, long eventTime) {
        timers.delete(requestId, eventTime);
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
    public void joined(Events.Joined j, long lastNeededArrivalMillis) {
        joined.add(j);
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
