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

import java.time.Clock;
import java.util.Arrays;

/**
 * Store health from the rate of transient failures in a sliding time window, as a router's Couchbase
 * health monitor does: above {@code maxErrorRate} over at least {@code minSamples} recent operations,
 * the store is unhealthy. Outcomes older than the window are forgotten, so health comes back once
 * retries succeed again. Counts live in ten fixed time buckets, so recording is O(1) at any rate.
 */
public final class ErrorRateHealth {

    private static final int BUCKETS = 10;

    private final Clock clock;
    private final long bucketMillis;
    private final int minSamples;
    private final double maxErrorRate;
    private final long[] bucketStart = new long[BUCKETS];
    private final int[] total = new int[BUCKETS];
    private final int[] failed = new int[BUCKETS];
    private String lastError = "none";

    public ErrorRateHealth(Clock clock, long windowMillis, int minSamples, double maxErrorRate) {
        if (windowMillis < BUCKETS || minSamples <= 0 || maxErrorRate < 0 || maxErrorRate > 1) {
            throw new IllegalArgumentException(
                    "window must be >= " + BUCKETS + " ms, minSamples > 0, maxErrorRate in [0,1]");
        }
        this.clock = clock;
        this.bucketMillis = windowMillis / BUCKETS;
        this.minSamples = minSamples;
        this.maxErrorRate = maxErrorRate;
        Arrays.fill(bucketStart, Long.MIN_VALUE);
    }

    public synchronized void success() {
        bucket(clock.millis(), 0);
    }

    public synchronized void failure(Throwable error) {
        lastError = error.getClass().getSimpleName() + ": " + error.getMessage();
        bucket(clock.millis(), 1);
    }

    public synchronized CacheStore.Health health() {
        long oldest = slot(clock.millis()) - (long) (BUCKETS - 1) * bucketMillis;
        int ops = 0;
        int errors = 0;
        for (int i = 0; i < BUCKETS; i++) {
            if (bucketStart[i] >= oldest) {
                ops += total[i];
                errors += failed[i];
            }
        }
        if (ops < minSamples) {
            return CacheStore.Health.up();
        }
        double rate = (double) errors / ops;
        if (rate > maxErrorRate) {
            return CacheStore.Health.down(String.format(
                    "%d of the last %d operations failed (%.0f%%, limit %.0f%%) within %d ms; last error: %s",
                    errors, ops, rate * 100, maxErrorRate * 100, bucketMillis * BUCKETS, lastError));
        }
        return CacheStore.Health.up();
    }

    private long slot(long now) {
        return now - Math.floorMod(now, bucketMillis);
    }

    private void bucket(long now, int failure) {
        long start = slot(now);
        int i = (int) Math.floorMod(start / bucketMillis, (long) BUCKETS);
        if (bucketStart[i] != start) {
            bucketStart[i] = start;
            total[i] = 0;
            failed[i] = 0;
        }
        total[i]++;
        failed[i] += failure;
    }
}
