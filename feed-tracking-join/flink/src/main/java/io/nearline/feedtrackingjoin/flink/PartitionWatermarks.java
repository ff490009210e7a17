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

import io.nearline.feedtrackingjoin.core.InputActivity;
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
        return new SplitGenerator(activity.input(clock.relativeTimeMillis()), clock);
    }

    /**
     * One split's watermark: its newest event time less the lateness, or idle. An event only notes
     * that the split was read; the activity is recorded at the next periodic emit (every 200 ms by
     * default), as Flink's own idleness does, so the clock is not read for every record.
     */
    private final class SplitGenerator implements WatermarkGenerator<TrackingInput> {
        private final InputActivity.Input input;
        private final RelativeClock clock;
        private long newest = Long.MIN_VALUE;
        private boolean read;

        SplitGenerator(InputActivity.Input input, RelativeClock clock) {
            this.input = input;
            this.clock = clock;
        }

        @Override
        public void onEvent(TrackingInput event, long eventTimestamp, WatermarkOutput out) {
            newest = Math.max(newest, eventTimestamp);
            read = true;
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput out) {
            long now = clock.relativeTimeMillis();
            if (read) {
                input.record(now);
                read = false;
            }
            if (input.isIdle(now)) {
                out.markIdle();
            } else if (newest != Long.MIN_VALUE) {
                out.emitWatermark(new Watermark(newest - latenessMillis - 1));
            } else {
                out.emitWatermark(new Watermark(Long.MIN_VALUE)); // active, holding the watermark back
            }
        }
    }
}
