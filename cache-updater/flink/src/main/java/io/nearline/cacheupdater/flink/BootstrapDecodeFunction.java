package io.nearline.cacheupdater.flink;

import io.nearline.bootstrap.BootstrapIntake;
import io.nearline.cacheupdater.core.events.ChangeEventValidator;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.metrics.Metrics;
import io.nearline.engine.flink.FlinkMetrics;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The bootstrapper's first step, chained to its source (so it sees each bootstrap-topic partition
 * whole and in order): the engine-neutral {@link BootstrapIntake} sorts rows (on to the SCN-ordered
 * write), markers (completeness, progress log) and rejections (dead letters).
 */
final class BootstrapDecodeFunction extends ProcessFunction<KafkaInput, Change> {

    private final String job;
    private final int maxPayloadBytes;
    private final String schemaRegistryDir;
    private transient BootstrapIntake intake;
    private transient Metrics.Counter deadLettered;

    BootstrapDecodeFunction(String job, int maxPayloadBytes, String schemaRegistryDir) {
        this.schemaRegistryDir = schemaRegistryDir;
        this.job = job;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    @Override
    public void open(OpenContext context) {
        Metrics metrics = new FlinkMetrics(getRuntimeContext().getMetricGroup());
        intake = new BootstrapIntake(ChangeEventValidator.of(maxPayloadBytes, schemaRegistryDir), metrics);
        deadLettered = metrics.counter("events.dead-lettered");
    }

    @Override
    public void processElement(KafkaInput in, Context ctx, Collector<Change> out) {
        BootstrapIntake.Taken taken = intake.take(in.value);
        if (taken instanceof BootstrapIntake.Row row) {
            out.collect(new Change(row.event().getKey(), row.rowBytes(), in, true));
        } else if (taken instanceof BootstrapIntake.Rejected rejected) {
            deadLettered.inc();
            ctx.output(
                    DecodeFunction.DEAD_LETTERS,
                    DeadLetters.encode(DecodeFunction.source(job, in).deadLetter(rejected.rejection())));
        }
    }
}
