package io.nearline.tracking.join;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InputActivityTest {

    private static final long IDLE = 30_000;
    private static final long STALL = 300_000;

    private static InputActivity readingBoth(long until) {
        InputActivity activity = new InputActivity(IDLE, STALL);
        activity.expect("a", 0);
        activity.expect("b", 0);
        for (long t = 0; t <= until; t += 1000) {
            activity.record("a", t);
            activity.record("b", t);
        }
        return activity;
    }

    @Test
    void aPartitionQuietWhileTheOthersAreReadIsIdle() {
        InputActivity activity = readingBoth(10_000);
        for (long t = 11_000; t <= 60_000; t += 1000) {
            activity.record("a", t);
        }
        assertFalse(activity.isIdle("b", 10_000 + IDLE - 1));
        assertTrue(activity.isIdle("b", 10_000 + IDLE));
        assertFalse(activity.isIdle("a", 60_000));
    }

    @Test
    void everyPartitionQuietAtOnceIsAStallNotIdleness() {
        InputActivity activity = readingBoth(10_000);
        long quiet = 10_000 + 2 * IDLE; // a broker restart
        assertFalse(activity.isIdle("a", quiet));
        assertFalse(activity.isIdle("b", quiet));
        activity.record("a", quiet); // a is read again first
        assertFalse(activity.isIdle("b", quiet + 1), "b gets a fresh idle timeout from the resumption");
        assertFalse(activity.isIdle("b", quiet + IDLE - 1));
        activity.record("a", quiet + IDLE - 1);
        assertTrue(activity.isIdle("b", quiet + IDLE), "quiet for a whole idle timeout while a is read");
    }

    @Test
    void aReaderQuietForTheStallTimeoutIsIdle() {
        InputActivity activity = readingBoth(10_000);
        assertFalse(activity.isIdle("a", 10_000 + STALL - 1));
        assertTrue(activity.isIdle("a", 10_000 + STALL), "a topic with no traffic at all");
        assertTrue(activity.isIdle("b", 10_000 + STALL));
    }

    @Test
    void aReaderThatNeverReadIsIdleAfterTheIdleTimeout() {
        InputActivity activity = new InputActivity(IDLE, STALL);
        activity.expect("a", 5_000);
        assertFalse(activity.isIdle("a", 5_000 + IDLE - 1));
        assertTrue(activity.isIdle("a", 5_000 + IDLE), "a subtask without partitions must not hold the others");
    }

    @Test
    void aPartitionExpectedLateGetsItsOwnIdleTimeout() {
        InputActivity activity = readingBoth(100_000);
        activity.expect("c", 100_000);
        activity.record("a", 120_000);
        assertFalse(activity.isIdle("c", 120_000));
        assertTrue(activity.isIdle("c", 130_000));
    }

    @Test
    void theStallTimeoutIsAtLeastTheIdleTimeout() {
        assertThrows(IllegalArgumentException.class, () -> new InputActivity(IDLE, IDLE - 1));
    }
}
