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
