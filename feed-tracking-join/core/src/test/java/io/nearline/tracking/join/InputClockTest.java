package io.nearline.tracking.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InputClockTest {

    @Test
    void lateIsJudgedPerPartition() {
        InputClock clock = new InputClock(100, 10_000);
        assertTrue(clock.admit("a", 1000, 0));
        assertTrue(clock.admit("a", 900, 0), "exactly the allowed lateness");
        assertFalse(clock.admit("a", 899, 0));
        assertTrue(clock.admit("b", 5, 0), "another partition's newest event does not matter");
    }

    @Test
    void theWatermarkWaitsForTheSlowestPartitionThatIsNotIdle() {
        InputClock clock = new InputClock(100, 10_000);
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
        assertEquals(899, clock.watermark(20_000 + 10_000), "every partition idle: it stays");
        clock.end("a");
        clock.end("b");
        assertEquals(Long.MAX_VALUE, clock.watermark(0));
    }
}
