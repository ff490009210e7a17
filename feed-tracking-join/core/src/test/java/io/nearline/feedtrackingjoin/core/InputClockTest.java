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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InputClockTest {

    @Test
    void lateIsJudgedPerPartition() {
        InputClock clock = new InputClock(100, 10_000, 60_000);
        assertTrue(clock.admit("a", 1000, 0));
        assertTrue(clock.admit("a", 900, 0), "exactly the allowed lateness");
        assertFalse(clock.admit("a", 899, 0));
        assertTrue(clock.admit("b", 5, 0), "another partition's newest event does not matter");
    }

    @Test
    void theWatermarkWaitsForTheSlowestPartitionThatIsNotIdle() {
        InputClock clock = new InputClock(100, 10_000, 60_000);
        clock.expect("a", 0);
        clock.expect("b", 0);
        clock.admit("a", 1000, 0);
        assertEquals(Long.MIN_VALUE, clock.watermark(1), "b not seen yet");
        clock.admit("b", 500, 1);
        assertEquals(399, clock.watermark(2));
        clock.admit("a", 1000, 5000);
        assertEquals(899, clock.watermark(10_001), "b idle");
        clock.admit("b", 600, 10_002);
        assertEquals(899, clock.watermark(10_003), "never goes back");
        clock.admit("a", 2000, 20_000);
        assertEquals(899, clock.watermark(20_000 + 10_000), "every partition stalled: it stays");
        assertEquals(899, clock.watermark(20_000 + 60_000), "every partition idle: it stays");
        clock.end("a");
        clock.end("b");
        assertEquals(Long.MAX_VALUE, clock.watermark(0));
    }

    @Test
    void afterAStallTheFirstPartitionReadAgainDoesNotMoveTheWatermarkAlone() {
        InputClock clock = indexAndBroker();
        clock.admit("index", 1000, 0);
        clock.admit("broker", 1000, 0);
        assertEquals(899, clock.watermark(1));
        // the broker restarts: nothing is read for 20 s, then the index partition's backlog comes first
        for (long ts = 1000; ts <= 21_000; ts += 1000) {
            clock.admit("index", ts, 20_000 + ts / 1000);
        }
        assertEquals(899, clock.watermark(20_030), "the broker partition is behind, not idle");
        clock.admit("broker", 2000, 20_040);
        assertEquals(1899, clock.watermark(20_041));
    }

    @Test
    void controlAPartitionQuietWhileTheOtherIsReadIsIdle() {
        InputClock clock = indexAndBroker();
        clock.admit("broker", 1000, 0);
        for (long t = 0; t <= 10_000; t += 1000) {
            clock.admit("index", 1000 + t, t);
        }
        assertEquals(10_899, clock.watermark(10_000), "the broker partition, quiet for 10 s, is idle");
    }

    /** A task's clock over one partition of each topic, both seen at 0. */
    private static InputClock indexAndBroker() {
        InputClock clock = new InputClock(100, 10_000, 60_000);
        clock.expect("index", 0);
        clock.expect("broker", 0);
        return clock;
    }
}
