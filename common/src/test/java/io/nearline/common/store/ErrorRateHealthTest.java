package io.nearline.common.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.testkit.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ErrorRateHealthTest {

    private final ManualClock clock = new ManualClock();
    private final ErrorRateHealth health = new ErrorRateHealth(clock, 10_000, 10, 0.5);

    @Test
    void healthyUntilEnoughSamples() {
        for (int i = 0; i < 9; i++) {
            health.failure(new RuntimeException("boom"));
        }
        assertTrue(health.health().healthy());
        health.failure(new RuntimeException("boom"));
        CacheStore.Health down = health.health();
        assertFalse(down.healthy());
        assertTrue(down.detail().contains("10 of the last 10") && down.detail().contains("boom"), down.detail());
    }

    @Test
    void successesKeepRateBelowLimit() {
        for (int i = 0; i < 20; i++) {
            health.success();
            if (i % 3 == 0) {
                health.failure(new RuntimeException("x"));
            }
        }
        assertTrue(health.health().healthy());
    }

    @Test
    void failuresAgeOutOfTheWindow() {
        for (int i = 0; i < 50; i++) {
            health.failure(new RuntimeException("x"));
        }
        assertFalse(health.health().healthy());
        clock.advance(Duration.ofSeconds(11));
        assertTrue(health.health().healthy());
    }
}
