package io.nearline.cacheupdater.flink;

import io.nearline.cacheupdater.core.events.ChangeEventCodec;
import io.nearline.cacheupdater.core.events.ChangeEventValidator;
import io.nearline.cacheupdater.core.events.Decoded;
import io.nearline.cacheupdater.core.events.Rejection;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.metrics.Metrics;
import io.nearline.engine.flink.FlinkMetrics;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/** Decodes and validates each CDC record: valid changes go on, the rest become dead letters. */
final class DecodeFunction extends ProcessFunction<KafkaInput, Change> {

    static final OutputTag<byte[]> DEAD_LETTERS = new OutputTag<>("dead-letters") {};

    private final String job;
    private final int maxPayloadBytes;
    private transient ChangeEventValidator validator;
    private transient Metrics.Counter received;
    private transient Metrics.Counter invalid;
    private transient Metrics.Counter deadLettered;

    DecodeFunction(String job, int maxPayloadBytes) {
        this.job = job;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    @Override
    public void open(OpenContext context) {
        validator = new ChangeEventValidator(maxPayloadBytes, null);
        Metrics metrics = new FlinkMetrics(getRuntimeContext().getMetricGroup());
        received = metrics.counter("events.received");
        invalid = metrics.counter("events.invalid");
        deadLettered = metrics.counter("events.dead-lettered");
    }

    @Override
    public void processElement(KafkaInput in, Context ctx, Collector<Change> out) {
        received.inc();
        Decoded decoded = ChangeEventCodec.decode(in.value);
        Rejection rejection = decoded.ok() ? validator.check(decoded.event()) : decoded.rejection();
        if (rejection == null) {
            out.collect(new Change(decoded.event().getKey(), in.value, in, false));
        } else {
            invalid.inc();
            deadLettered.inc();
            ctx.output(DEAD_LETTERS, DeadLetters.encode(source(job, in).deadLetter(rejection)));
        }
    }

    static SourceRecord source(String job, KafkaInput in) {
        return new SourceRecord(job, in.topic, in.partition, in.offset, in.key, in.value);
    }
}
