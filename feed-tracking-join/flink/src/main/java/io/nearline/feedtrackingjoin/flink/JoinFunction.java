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
package io.nearline.feedtrackingjoin.flink;

import io.nearline.common.metrics.Metrics;
import io.nearline.engines.flinkkit.FlinkMetrics;
import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.feedtrackingjoin.core.JoinMetrics;
import io.nearline.feedtrackingjoin.core.JoinOutput;
import io.nearline.feedtrackingjoin.core.JoinPorts;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.feedtrackingjoin.core.OutputLimit;
import io.nearline.feedtrackingjoin.core.RequestState;
import io.nearline.feedtrackingjoin.core.RequestStateCodec;
import io.nearline.feedtrackingjoin.core.TrackingJoin;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The join on Flink, keyed by requestId: the core's ports bound to keyed state on the RocksDB state
 * backend (a value for the request, a list for its pending events), the timer service (event time) and the outputs (joined main output; orphans and late
 * events as side outputs).
 */
final class JoinFunction extends KeyedProcessFunction<String, TrackingInput, KafkaOutput>
        implements JoinPorts.State, JoinPorts.Pending, JoinPorts.Timers, JoinOutput.Sink {

    static final OutputTag<KafkaOutput> ORPHANS = new OutputTag<>("orphans") {};
    static final OutputTag<KafkaOutput> LATE = new OutputTag<>("late") {};

    private final long windowMillis;
    private final JoinSettings.EmitComplete emitComplete;
    private final OutputLimit limit;
    private final JoinOutput.Topics topics;
    private transient ValueState<byte[]> state;
    private transient ListState<byte[]> pending;
    private transient TrackingJoin join;
    private transient Metrics.Counter received;
    private transient Context context;
    private transient Collector<KafkaOutput> out;

    JoinFunction(
            long windowMillis, JoinSettings.EmitComplete emitComplete, OutputLimit limit, JoinOutput.Topics topics) {
        this.windowMillis = windowMillis;
        this.emitComplete = emitComplete;
        this.limit = limit;
        this.topics = topics;
    }

    @Override
    public void open(OpenContext openContext) {
        state = getRuntimeContext()
                .getState(new ValueStateDescriptor<>("request", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        pending = getRuntimeContext()
                .getListState(
                        new ListStateDescriptor<>("pending", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        Metrics metrics = new FlinkMetrics(getRuntimeContext().getMetricGroup());
        received = metrics.counter(JoinMetrics.RECEIVED);
        JoinOutput output = new JoinOutput(metrics, limit, topics, this);
        join = new TrackingJoin(windowMillis, emitComplete, this, this, this, output);
    }

    @Override
    public void processElement(TrackingInput in, Context ctx, Collector<KafkaOutput> collector) {
        context = ctx;
        out = collector;
        if (in.inTime) {
            join.onEncodedEvent(in.requestId, in.ts, in.value);
        } else {
            join.onLate(RequestStateCodec.decodePending(in.value).event(), Events.LateReason.BEHIND_PARTITION);
        }
        // after the work, as on Samza: counted at the source, it would run ahead of the join by what
        // waits in the network buffers, and a live bench would measure before the join caught up
        received.inc();
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<KafkaOutput> collector) {
        context = ctx;
        out = collector;
        join.onTimer(ctx.getCurrentKey(), timestamp);
    }

    @Override
    public Optional<RequestState> get(String requestId) {
        try {
            byte[] bytes = state.value();
            return bytes == null ? Optional.empty() : Optional.of(RequestStateCodec.decode(bytes));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the join state of " + requestId, e);
        }
    }

    @Override
    public void put(String requestId, RequestState s) {
        try {
            state.update(RequestStateCodec.encode(s));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the join state of " + requestId, e);
        }
    }

    @Override
    public void remove(String requestId) {
        state.clear();
    }

    @Override
    public void add(String requestId, RequestState.Pending event) {
        addEncoded(requestId, RequestStateCodec.encode(event));
    }

    @Override
    public void addEncoded(String requestId, byte[] encoded) {
        try {
            pending.add(encoded); // a merge on RocksDB: no read
        } catch (Exception e) {
            throw new IllegalStateException("cannot add a pending event of " + requestId, e);
        }
    }

    @Override
    public List<RequestState.Pending> takeUpTo(String requestId, long time) {
        try {
            List<RequestState.Pending> all = new ArrayList<>();
            Iterable<byte[]> stored = pending.get();
            if (stored != null) {
                stored.forEach(bytes -> all.add(RequestStateCodec.decodePending(bytes)));
            }
            if (all.isEmpty()) {
                return List.of();
            }
            RequestState.Split split = RequestState.Split.of(all, time);
            if (split.rest().isEmpty()) {
                pending.clear();
            } else if (!split.due().isEmpty()) {
                List<byte[]> rest = new ArrayList<>();
                split.rest().forEach(p -> rest.add(RequestStateCodec.encode(p)));
                pending.update(rest);
            }
            return split.due();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the pending events of " + requestId, e);
        }
    }

    @Override
    public void register(String requestId, long eventTime) {
        context.timerService().registerEventTimeTimer(eventTime);
    }

    @Override
    public void delete(String requestId, long eventTime) {
        context.timerService().deleteEventTimeTimer(eventTime);
    }

    @Override
    public long currentWatermark() {
        return context.timerService().currentWatermark();
    }

    @Override
    public void send(JoinOutput.Kind kind, String requestId, byte[] value) {
        KafkaOutput record = new KafkaOutput(requestId, value);
        switch (kind) {
            case JOINED -> out.collect(record);
            case ORPHAN -> context.output(ORPHANS, record);
            case LATE -> context.output(LATE, record);
        }
    }

    @Override
    public void deadLetter(byte[] deadLetter) {
        context.output(RouteFunction.DEAD_LETTERS, new KafkaOutput(null, deadLetter));
    }
}
