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
package io.nearline.feedtrackingjoin.core;

import java.util.HashMap;
import java.util.Map;

/**
 * Event time per input partition, engine-neutral. Two jobs:
 * <ul>
 *   <li>{@link #admit}: an event more than the allowed lateness older than the newest event seen on
 *       its own partition is late. Judged against its own partition only, so the verdict depends on
 *       the partition's order alone, not on how an engine interleaves partitions.</li>
 *   <li>{@link #watermark}: the smallest of the partitions' newest event times, less the allowed
 *       lateness and 1 ms (as Flink's bounded-out-of-orderness watermarks). A partition counted idle
 *       ({@link InputActivity}: quiet while the others are read, not stalled with them) stops holding
 *       it back; an ended partition never does; when every partition is idle it stays where it is.
 *       It never goes back.</li>
 * </ul>
 * Flink uses the first (its watermark generator, {@code PartitionWatermarks}, does the second per
 * split with the same {@link InputActivity}); Samza uses both.
 * Not thread-safe: one per task.
 */
public final class InputClock {

    private static final class Input {
        final InputActivity.Input activity;
        long newest = Long.MIN_VALUE;
        boolean ended;

        Input(InputActivity.Input activity) {
            this.activity = activity;
        }
    }

    private final long latenessMillis;
    private final InputActivity activity;
    private final Map<String, Input> inputs = new HashMap<>();
    private long watermark = Long.MIN_VALUE;

    /** Lateness only, no idleness: for a clock whose {@link #watermark} is not used, or a bounded replay. */
    public InputClock(long latenessMillis) {
        this(latenessMillis, Long.MAX_VALUE, Long.MAX_VALUE);
    }

    public InputClock(long latenessMillis, long idleTimeoutMillis, long stallTimeoutMillis) {
        this.latenessMillis = latenessMillis;
        this.activity = new InputActivity(idleTimeoutMillis, stallTimeoutMillis);
    }

    /** An input this task will read: it holds the watermark back until it is seen, idle or ended. */
    public void expect(String input, long nowMillis) {
        inputs.computeIfAbsent(input, i -> new Input(activity.input(nowMillis)));
    }

    /** Records an event of {@code input}; false when it is late for its own partition. */
    public boolean admit(String input, long eventTime, long nowMillis) {
        Input in = inputs.computeIfAbsent(input, i -> new Input(activity.input(nowMillis)));
        in.activity.record(nowMillis);
        boolean inTime = in.newest == Long.MIN_VALUE || eventTime >= in.newest - latenessMillis;
        in.newest = Math.max(in.newest, eventTime);
        return inTime;
    }

    /** {@code input} has no more events (a bounded replay read it to its end). */
    public void end(String input) {
        // an ended input never holds the watermark: its activity is never asked
        inputs.computeIfAbsent(input, i -> new Input(activity.input(0))).ended = true;
    }

    public boolean allEnded() {
        return !inputs.isEmpty() && inputs.values().stream().allMatch(i -> i.ended);
    }

    public long watermark(long nowMillis) {
        if (allEnded()) {
            watermark = Long.MAX_VALUE;
            return watermark;
        }
        long min = Long.MAX_VALUE;
        boolean anyActive = false;
        for (Input in : inputs.values()) {
            if (in.ended || in.activity.isIdle(nowMillis)) {
                continue;
            }
            anyActive = true;
            min = Math.min(min, in.newest == Long.MIN_VALUE ? Long.MIN_VALUE : in.newest - latenessMillis - 1);
        }
        if (anyActive) {
            watermark = Math.max(watermark, min);
        }
        return watermark;
    }
}
