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

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InputActivityTest {

    private static final long IDLE = 30_000;
    private static final long STALL = 300_000;

    /** A reader of two inputs, both read every second from 0 to {@code until}. */
    private static final class Reader {
        final InputActivity activity = new InputActivity(IDLE, STALL);
        final InputActivity.Input a = activity.input(0);
        final InputActivity.Input b = activity.input(0);

        Reader(long until) {
            for (long t = 0; t <= until; t += 1000) {
                a.record(t);
                b.record(t);
            }
        }
    }

    @Test
    void aPartitionQuietWhileTheOthersAreReadIsIdle() {
        Reader r = new Reader(10_000);
        for (long t = 11_000; t <= 60_000; t += 1000) {
            r.a.record(t);
        }
        assertFalse(r.b.isIdle(10_000 + IDLE - 1));
        assertTrue(r.b.isIdle(10_000 + IDLE));
        assertFalse(r.a.isIdle(60_000));
    }

    @Test
    void everyPartitionQuietAtOnceIsAStallNotIdleness() {
        Reader r = new Reader(10_000);
        long quiet = 10_000 + 2 * IDLE; // a broker restart
        assertFalse(r.a.isIdle(quiet));
        assertFalse(r.b.isIdle(quiet));
        r.a.record(quiet); // a is read again first
        assertFalse(r.b.isIdle(quiet + 1), "b gets a fresh idle timeout from the resumption");
        assertFalse(r.b.isIdle(quiet + IDLE - 1));
        r.a.record(quiet + IDLE - 1);
        assertTrue(r.b.isIdle(quiet + IDLE), "quiet for a whole idle timeout while a is read");
    }

    @Test
    void aReaderQuietForTheStallTimeoutIsIdle() {
        Reader r = new Reader(10_000);
        assertFalse(r.a.isIdle(10_000 + STALL - 1));
        assertTrue(r.a.isIdle(10_000 + STALL), "a topic with no traffic at all");
        assertTrue(r.b.isIdle(10_000 + STALL));
    }

    @Test
    void aReaderThatNeverReadIsIdleAfterTheIdleTimeout() {
        InputActivity.Input a = new InputActivity(IDLE, STALL).input(5_000);
        assertFalse(a.isIdle(5_000 + IDLE - 1));
        assertTrue(a.isIdle(5_000 + IDLE), "a subtask without partitions must not hold the others");
    }

    @Test
    void aPartitionExpectedLateGetsItsOwnIdleTimeout() {
        Reader r = new Reader(100_000);
        InputActivity.Input c = r.activity.input(100_000);
        r.a.record(120_000);
        assertFalse(c.isIdle(120_000));
        assertTrue(c.isIdle(130_000));
    }

    @Test
    void theStallTimeoutIsAtLeastTheIdleTimeout() {
        assertThrows(IllegalArgumentException.class, () -> new InputActivity(IDLE, IDLE - 1));
    }
}
