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

import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.metrics.Metrics;
import io.nearline.engines.flinkkit.FlinkMetrics;
import io.nearline.feedtrackingjoin.core.JoinMetrics;
import io.nearline.feedtrackingjoin.core.TrackingRejection;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Valid events go on to the join, which counts them once applied; the rest become dead letters, counted
 * here as received.
 */
final class RouteFunction extends ProcessFunction<TrackingInput, TrackingInput> {

    static final OutputTag<KafkaOutput> DEAD_LETTERS = new OutputTag<>("dead-letters") {};

    private final String job;
    private transient Metrics.Counter received;
    private transient Metrics.Counter deadLettered;

    RouteFunction(String job) {
        this.job = job;
    }

    @Override
    public void open(OpenContext context) {
        Metrics metrics = new FlinkMetrics(getRuntimeContext().getMetricGroup());
        received = metrics.counter(JoinMetrics.RECEIVED);
        deadLettered = metrics.counter(JoinMetrics.DEAD_LETTERED);
    }

    @Override
    public void processElement(TrackingInput in, Context ctx, Collector<TrackingInput> out) {
        if (in.kind != TrackingInput.INVALID) {
            out.collect(in);
            return;
        }
        received.inc();
        deadLettered.inc();
        ctx.output(
                DEAD_LETTERS,
                new KafkaOutput(
                        null,
                        DeadLetters.encode(DeadLetters.of(
                                new SourceRecord(job, in.topic, in.partition, in.offset, in.key, in.value),
                                new TrackingRejection(in.rejectionCode, in.rejectionDetail),
                                System.currentTimeMillis()))));
    }
}
