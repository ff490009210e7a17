package io.nearline.tracking.flink;

import io.nearline.tracking.join.InputActivity;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.util.clock.RelativeClock;

/**
 * The join's watermarks on Flink, per split: bounded out-of-orderness (the allowed lateness), and
 * idleness judged by the core's {@link InputActivity} across the splits of one source subtask, so a
 * broker restart that silences every split at once is a stall, not idleness. Flink's own
 * {@code withIdleness} counts each split alone: after a restart the first split read again moved the
 * watermark through its backlog while the others were still counted idle (the broker-restart drill).
 *
 * <p>Flink deserializes the strategy for each source subtask and calls it for every split of that
 * subtask (and once for the reader's own output) from the task's thread, so the activity shared
 * through this instance is the subtask's own. Time is the source's input-activity clock, as for
 * Flink's idleness: it stands still while the source is paused by backpressure.
 */
final class PartitionWatermarks implements WatermarkStrategy<TrackingInput> {

    private final long latenessMillis;
    private final long idleTimeoutMillis;
    private final long stallTimeoutMillis;
    private transient InputActivity activity;
    private transient int outputs;

    PartitionWatermarks(Duration lateness, Duration idleTimeout, Duration stallTimeout) {
        this.latenessMillis = lateness.toMillis();
        this.idleTimeoutMillis = idleTimeout.toMillis();
        this.stallTimeoutMillis = stallTimeout.toMillis();
    }

    static WatermarkStrategy<TrackingInput> of(Duration lateness, Duration idleTimeout, Duration stallTimeout) {
        return new PartitionWatermarks(lateness, idleTimeout, stallTimeout)
                .withTimestampAssigner((in, kafkaTimestamp) -> in.ts);
    }

    @Override
    public WatermarkGenerator<TrackingInput> createWatermarkGenerator(WatermarkGeneratorSupplier.Context context) {
        if (activity == null) {
            activity = new InputActivity(idleTimeoutMillis, stallTimeoutMillis);
        }
        RelativeClock clock = context.getInputActivityClock();
        String output = "output-" + outputs++;
        activity.expect(output, clock.relativeTimeMillis());
        return new SplitGenerator(output, activity, clock);
    }

    /** One split's watermark: its newest event time less the lateness, or idle. */
    private final class SplitGenerator implements WatermarkGenerator<TrackingInput> {
        private final String output;
        private final InputActivity activity;
        private final RelativeClock clock;
        private long newest = Long.MIN_VALUE;

        SplitGenerator(String output, InputActivity activity, RelativeClock clock) {
            this.output = output;
            this.activity = activity;
            this.clock = clock;
        }

        @Override
        public void onEvent(TrackingInput event, long eventTimestamp, WatermarkOutput out) {
            newest = Math.max(newest, eventTimestamp);
            activity.record(output, clock.relativeTimeMillis());
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput out) {
            if (activity.isIdle(output, clock.relativeTimeMillis())) {
                out.markIdle();
            } else if (newest != Long.MIN_VALUE) {
                out.emitWatermark(new Watermark(newest - latenessMillis - 1));
            } else {
                out.emitWatermark(new Watermark(Long.MIN_VALUE)); // active, holding the watermark back
            }
        }
    }
}
