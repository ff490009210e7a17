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

import java.io.Serializable;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with "equal jitter": retry n waits between half and all of
 * {@code min(max, initial * 2^n)}. The jitter keeps writers that collided on a key from colliding
 * again in lockstep; the floor keeps them from hammering a struggling store.
 */
public record Backoff(Duration initial, Duration max) implements Serializable {

    public Backoff {
        if (initial.isNegative() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("need 0 <= initial <= max, got " + initial + " and " + max);
        }
    }

    public Duration delay(int retry, RandomGenerator random) {
        long cap = max.toNanos();
        long base = initial.toNanos() << Math.min(retry, 30);
        long exp = base < 0 || base > cap ? cap : base;
        long half = exp / 2;
        return Duration.ofNanos(half + (exp - half == 0 ? 0 : random.nextLong(exp - half + 1)));
    }
}
