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
