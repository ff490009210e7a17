package io.nearline.cacheupdater.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void growsExponentiallyWithinJitterBoundsAndIsCapped() {
        Backoff backoff = new Backoff(Duration.ofMillis(10), Duration.ofMillis(500));
        Random random = new Random(1);
        for (int retry = 0; retry < 40; retry++) {
            long cap = Math.min(500, 10L << Math.min(retry, 30));
            for (int i = 0; i < 50; i++) {
                long ms = backoff.delay(retry, random).toMillis();
                assertTrue(
                        ms >= cap / 2 && ms <= cap,
                        "retry " + retry + " gave " + ms + " ms, expected [" + cap / 2 + ", " + cap + "]");
            }
        }
    }

    @Test
    void zeroInitialMeansNoWait() {
        assertTrue(
                new Backoff(Duration.ZERO, Duration.ZERO).delay(3, new Random()).isZero());
    }
}
