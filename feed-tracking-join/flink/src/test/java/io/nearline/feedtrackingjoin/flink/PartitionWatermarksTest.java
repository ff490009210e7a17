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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkOutputMultiplexer;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.clock.ManualClock;
import org.apache.flink.util.clock.RelativeClock;
import org.junit.jupiter.api.Test;

/**
 * One source subtask reading two splits through Flink's own multiplexer, as the source operator
 * combines them, with the input-activity clock turned by hand: a broker restart silences both, then
 * one split's backlog is read before the other's.
 */
class PartitionWatermarksTest {

    private static final Duration LATENESS = Duration.ofSeconds(2);
    private static final Duration IDLE = Duration.ofSeconds(30);

    /** The watermark the subtask sends downstream, and whether it is idle. */
    private static final class Downstream implements WatermarkOutput {
        long watermark = Long.MIN_VALUE;
        boolean idle;

        @Override
        public void emitWatermark(Watermark w) {
            watermark = Math.max(watermark, w.getTimestamp());
            idle = false;
        }

        @Override
        public void markIdle() {
            idle = true;
        }

        @Override
        public void markActive() {
            idle = false;
        }
    }

    private static final class Subtask {
        final ManualClock clock = new ManualClock();
        final Downstream downstream = new Downstream();
        final WatermarkOutputMultiplexer multiplexer = new WatermarkOutputMultiplexer(downstream);
        final WatermarkGenerator<TrackingInput> index;
        final WatermarkGenerator<TrackingInput> broker;

        Subtask(WatermarkStrategy<TrackingInput> strategy) {
            WatermarkGeneratorSupplier.Context context = new WatermarkGeneratorSupplier.Context() {
                @Override
                public MetricGroup getMetricGroup() {
                    return new UnregisteredMetricsGroup();
                }

                @Override
                public RelativeClock getInputActivityClock() {
                    return clock;
                }
            };
            index = strategy.createWatermarkGenerator(context);
            broker = strategy.createWatermarkGenerator(context);
            multiplexer.registerNewOutput("index");
            multiplexer.registerNewOutput("broker");
        }

        void read(WatermarkGenerator<TrackingInput> split, String name, long eventTime) {
            split.onEvent(new TrackingInput(), eventTime, multiplexer.getImmediateOutput(name));
        }

        /** Flink's periodic emit (every 200 ms by default), for {@code millis} of the clock. */
        void runFor(long millis) {
            for (long t = 0; t < millis; t += 200) {
                clock.advanceTime(Duration.ofMillis(200));
                index.onPeriodicEmit(multiplexer.getDeferredOutput("index"));
                broker.onPeriodicEmit(multiplexer.getDeferredOutput("broker"));
                multiplexer.onPeriodicEmit();
            }
        }

        /** Both splits read up to event time 10 s, the broker down for 40 s, then the index backlog first. */
        void brokerRestart() {
            for (long ts = 1_000; ts <= 10_000; ts += 1_000) {
                read(index, "index", ts);
                read(broker, "broker", ts);
                runFor(1_000);
            }
            runFor(40_000);
            for (long ts = 11_000; ts <= 50_000; ts += 1_000) {
                read(index, "index", ts); // the backlog, read in a second
            }
            runFor(1_000);
        }
    }

    @Test
    void afterABrokerRestartTheSplitReadFirstDoesNotMoveTheWatermarkAlone() {
        Subtask subtask = new Subtask(PartitionWatermarks.of(LATENESS, IDLE, Duration.ofMinutes(5)));
        subtask.brokerRestart();
        assertEquals(10_000 - 2_000 - 1, subtask.downstream.watermark, "the broker split holds it back");
        subtask.read(subtask.broker, "broker", 11_000);
        subtask.runFor(1_000);
        assertEquals(11_000 - 2_000 - 1, subtask.downstream.watermark);
    }

    @Test
    void controlFlinksOwnIdlenessLetsTheSplitReadFirstMoveIt() {
        Subtask subtask = new Subtask(WatermarkStrategy.<TrackingInput>forBoundedOutOfOrderness(LATENESS)
                .withIdleness(IDLE));
        subtask.brokerRestart();
        assertEquals(50_000 - 2_000 - 1, subtask.downstream.watermark, "the broker split counted idle");
    }

    @Test
    void aSplitQuietWhileTheOtherIsReadStopsHoldingTheWatermark() {
        Subtask subtask = new Subtask(PartitionWatermarks.of(LATENESS, IDLE, Duration.ofMinutes(5)));
        subtask.read(subtask.broker, "broker", 1_000);
        for (long ts = 1_000; ts <= 40_000; ts += 1_000) {
            subtask.read(subtask.index, "index", ts);
            subtask.runFor(1_000);
        }
        assertEquals(40_000 - 2_000 - 1, subtask.downstream.watermark);
    }

    @Test
    void aSubtaskQuietForTheStallTimeoutGoesIdle() {
        Subtask subtask = new Subtask(PartitionWatermarks.of(LATENESS, IDLE, Duration.ofMinutes(1)));
        subtask.read(subtask.index, "index", 1_000);
        subtask.read(subtask.broker, "broker", 1_000);
        subtask.runFor(59_000);
        assertFalse(subtask.downstream.idle, "a stall: still holding the join's watermark");
        subtask.runFor(1_200);
        assertTrue(subtask.downstream.idle, "quiet for the stall timeout: idle, the other subtasks go on");
    }
}
