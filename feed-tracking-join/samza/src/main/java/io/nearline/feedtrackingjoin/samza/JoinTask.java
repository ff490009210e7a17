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
package io.nearline.feedtrackingjoin.samza;

import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.metrics.Metrics;
import io.nearline.engines.samzakit.SamzaConfig;
import io.nearline.engines.samzakit.SamzaMetrics;
import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.feedtrackingjoin.core.InMemoryTimers;
import io.nearline.feedtrackingjoin.core.InputClock;
import io.nearline.feedtrackingjoin.core.JoinMetrics;
import io.nearline.feedtrackingjoin.core.JoinOutput;
import io.nearline.feedtrackingjoin.core.JoinPartitions;
import io.nearline.feedtrackingjoin.core.JoinPorts;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.feedtrackingjoin.core.OutputLimit;
import io.nearline.feedtrackingjoin.core.RequestState;
import io.nearline.feedtrackingjoin.core.RequestStateCodec;
import io.nearline.feedtrackingjoin.core.TrackingCodec;
import io.nearline.feedtrackingjoin.core.TrackingJoin;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.samza.context.Context;
import org.apache.samza.scheduler.CallbackScheduler;
import org.apache.samza.storage.kv.Entry;
import org.apache.samza.storage.kv.KeyValueIterator;
import org.apache.samza.storage.kv.KeyValueStore;
import org.apache.samza.system.IncomingMessageEnvelope;
import org.apache.samza.system.OutgoingMessageEnvelope;
import org.apache.samza.system.SystemStream;
import org.apache.samza.system.SystemStreamPartition;
import org.apache.samza.task.InitableTask;
import org.apache.samza.task.MessageCollector;
import org.apache.samza.task.StreamTask;
import org.apache.samza.task.TaskCoordinator;

/**
 * The join on Samza, one task per partition number (partition p of both topics). The core's ports
 * are bound to the task's RocksDB store, a watermark of its own ({@link InputClock} over the task's
 * partitions: allowed lateness, idleness) with event-time timers kept in memory, and the collector.
 * Samza does not persist timers: they are rebuilt from the store at start. A scheduled callback
 * advances the watermark when no input comes (an idle partition must not hold results back).
 */
final class JoinTask
        implements StreamTask, InitableTask, JoinPorts.State, JoinPorts.Pending, JoinPorts.Timers, JoinOutput.Sink {

    /** One store, two kinds of entry: a request's state, and its events waiting for the watermark. */
    private static final String STATE = "s|";

    private static final String PENDING = "p|";

    /**
     * A bounded run only: "this input was read to this end offset". Written with the last message of an
     * input, so it is in the store exactly when the commit covers that message (the store rolls back
     * with the input positions): a restarted task whose input was read to its end before the crash gets
     * no message from it again, and learns it here.
     */
    private static final String ENDED = "e|";

    private static final long TICK_MILLIS = 500;

    private final Map<String, Map<Integer, Long>> endOffsets;
    private final Map<String, Long> lastOffsets = new HashMap<>();
    private final InMemoryTimers timers = new InMemoryTimers();
    private JoinSettings settings;
    private KeyValueStore<String, byte[]> store;
    private InputClock clock;
    private TrackingJoin join;
    private CallbackScheduler scheduler;
    private long watermark = Long.MIN_VALUE;
    private boolean drained;
    private MessageCollector collector;
    private SystemStream joinedOut;
    private SystemStream orphansOut;
    private SystemStream lateOut;
    private SystemStream deadLettersOut;
    private Metrics.Counter received;
    private Metrics.Counter deadLettered;
    private Metrics.Counter drainedTasks;

    JoinTask(Map<String, Map<Integer, Long>> endOffsets) {
        this.endOffsets = endOffsets;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void init(Context context) {
        settings =
                JoinSettings.from(SamzaConfig.nearline(context.getJobContext().getConfig()));
        store = (KeyValueStore<String, byte[]>) context.getTaskContext().getStore(JoinApp.STORE);
        Metrics metrics = new SamzaMetrics(context.getTaskContext().getTaskMetricsRegistry());
        received = metrics.counter(JoinMetrics.RECEIVED);
        deadLettered = metrics.counter(JoinMetrics.DEAD_LETTERED);
        drainedTasks = metrics.counter(JoinMetrics.TASKS_DRAINED);
        joinedOut = new SystemStream(JoinApp.SYSTEM, settings.joinedTopic());
        orphansOut = new SystemStream(JoinApp.SYSTEM, settings.orphansTopic());
        lateOut = new SystemStream(JoinApp.SYSTEM, settings.lateTopic());
        deadLettersOut = new SystemStream(JoinApp.SYSTEM, settings.deadLetterTopic());

        long windowMillis = settings.window().toMillis();
        JoinOutput output = new JoinOutput(metrics, OutputLimit.of(settings), JoinOutput.Topics.of(settings), this);
        join = new TrackingJoin(windowMillis, settings.emitComplete(), this, this, this, output);
        clock = new InputClock(
                settings.allowedLateness().toMillis(),
                settings.idleTimeout().toMillis(),
                settings.stallTimeout().toMillis());
        long now = System.currentTimeMillis();
        for (SystemStreamPartition ssp : context.getTaskContext().getTaskModel().getSystemStreamPartitions()) {
            String input =
                    JoinPartitions.input(ssp.getStream(), ssp.getPartition().getPartitionId());
            clock.expect(input, now);
            Map<Integer, Long> ends = endOffsets.get(ssp.getStream());
            if (ends != null) {
                long end = ends.getOrDefault(ssp.getPartition().getPartitionId(), 0L);
                if (end == 0) {
                    clock.end(input);
                } else {
                    lastOffsets.put(input, end - 1);
                }
            }
        }
        // timers are not persisted: every request in the store asks again for the times it waits on
        KeyValueIterator<String, byte[]> all = store.all();
        try {
            while (all.hasNext()) {
                Entry<String, byte[]> e = all.next();
                String requestId = e.getKey().substring(2);
                if (e.getKey().startsWith(ENDED)) {
                    Long last = lastOffsets.get(requestId);
                    if (last != null && Long.parseLong(new String(e.getValue(), StandardCharsets.UTF_8)) >= last) {
                        clock.end(requestId);
                    }
                } else if (e.getKey().startsWith(STATE)) {
                    register(requestId, RequestStateCodec.decode(e.getValue()).nextTimer(windowMillis));
                } else {
                    RequestStateCodec.decodeList(e.getValue())
                            .forEach(p -> register(
                                    requestId, TrackingJoin.sliceEnd(p.event().ts())));
                }
            }
        } finally {
            all.close();
        }
        scheduler = context.getTaskContext().getCallbackScheduler();
        scheduleTick();
    }

    private void scheduleTick() {
        scheduler.scheduleCallback("tick", System.currentTimeMillis() + TICK_MILLIS, (key, out, coordinator) -> {
            advance(out);
            scheduleTick();
        });
    }

    @Override
    public void process(IncomingMessageEnvelope envelope, MessageCollector out, TaskCoordinator coordinator) {
        collector = out;
        SystemStreamPartition ssp = envelope.getSystemStreamPartition();
        String input = JoinPartitions.input(ssp.getStream(), ssp.getPartition().getPartitionId());
        byte[] value = (byte[]) envelope.getMessage();
        boolean broker = ssp.getStream().equals(settings.brokerTopic());
        TrackingCodec.Decoded decoded =
                broker ? TrackingCodec.decodeBroker(value) : TrackingCodec.decodeFragment(value);
        long now = System.currentTimeMillis();
        if (!decoded.ok()) {
            deadLettered.inc();
            out.send(new OutgoingMessageEnvelope(
                    deadLettersOut,
                    DeadLetters.encode(DeadLetters.of(
                            new SourceRecord(
                                    settings.consumerGroup(),
                                    ssp.getStream(),
                                    ssp.getPartition().getPartitionId(),
                                    Long.parseLong(envelope.getOffset()),
                                    (byte[]) envelope.getKey(),
                                    value),
                            decoded.rejection(),
                            now))));
        } else if (clock.admit(input, decoded.event().ts(), now)) {
            join.onEvent(decoded.event(), now);
        } else {
            join.onLate(decoded.event(), Events.LateReason.BEHIND_PARTITION);
        }
        Long last = lastOffsets.get(input);
        if (last != null && Long.parseLong(envelope.getOffset()) >= last) {
            clock.end(input);
            store.put(ENDED + input, envelope.getOffset().getBytes(StandardCharsets.UTF_8));
        }
        advance(out);
        received.inc(); // after the work: a local run waits on this count
    }

    /** Moves the watermark on and fires the timers it passed, in time order. */
    private void advance(MessageCollector out) {
        collector = out;
        watermark = clock.watermark(System.currentTimeMillis());
        timers.fireUpTo(watermark, join::onTimer);
        if (!drained && clock.allEnded()) {
            drained = true; // a bounded run read every input to its end and flushed everything
            drainedTasks.inc();
        }
    }

    @Override
    public Optional<RequestState> get(String requestId) {
        byte[] bytes = store.get(STATE + requestId);
        return bytes == null ? Optional.empty() : Optional.of(RequestStateCodec.decode(bytes));
    }

    @Override
    public void put(String requestId, RequestState state) {
        store.put(STATE + requestId, RequestStateCodec.encode(state));
    }

    @Override
    public void remove(String requestId) {
        store.delete(STATE + requestId);
    }

    @Override
    public void add(String requestId, RequestState.Pending event) {
        store.put(PENDING + requestId, RequestStateCodec.append(store.get(PENDING + requestId), event));
    }

    @Override
    public List<RequestState.Pending> takeUpTo(String requestId, long time) {
        byte[] bytes = store.get(PENDING + requestId);
        if (bytes == null) {
            return List.of();
        }
        RequestState.Split split = RequestState.Split.of(RequestStateCodec.decodeList(bytes), time);
        if (split.rest().isEmpty()) {
            store.delete(PENDING + requestId);
        } else if (!split.due().isEmpty()) {
            store.put(PENDING + requestId, RequestStateCodec.encodeList(split.rest()));
        }
        return split.due();
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
    public long currentWatermark() {
        return watermark;
    }

    @Override
    public void send(JoinOutput.Kind kind, String requestId, byte[] value) {
        SystemStream stream =
                switch (kind) {
                    case JOINED -> joinedOut;
                    case ORPHAN -> orphansOut;
                    case LATE -> lateOut;
                };
        collector.send(new OutgoingMessageEnvelope(stream, requestId.getBytes(StandardCharsets.UTF_8), value));
    }

    @Override
    public void deadLetter(byte[] deadLetter) {
        collector.send(new OutgoingMessageEnvelope(deadLettersOut, deadLetter));
    }
}
