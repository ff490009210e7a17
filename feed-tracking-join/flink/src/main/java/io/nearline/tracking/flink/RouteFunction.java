package io.nearline.tracking.flink;

import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.metrics.Metrics;
import io.nearline.engine.flink.FlinkMetrics;
import io.nearline.tracking.join.JoinMetrics;
import io.nearline.tracking.join.TrackingRejection;
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
