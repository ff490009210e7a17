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
package io.nearline.localcluster.sourcesimulator;

import io.nearline.common.cache.CacheKey;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;

/**
 * What the source of truth commits: {@code commits} changes over {@code keys} keys chosen with Zipf
 * skew {@code skew} (0 is uniform), a share {@code deleteRatio} of them deletes, a schema upgrade once
 * {@code upgradeAt} of the commits are done (negative: none), at most {@code ratePerSec} commits per
 * second (0: as fast as it goes). A run stops at its commit count or its time limit, whichever first.
 */
public record Workload(int keys, long commits, double skew, double deleteRatio, double upgradeAt, int ratePerSec) {

    public Workload {
        if (keys < 1 || commits < 0 || skew < 0 || deleteRatio < 0 || deleteRatio > 1 || ratePerSec < 0) {
            throw new IllegalArgumentException("keys >= 1, commits >= 0, skew >= 0, deleteRatio in [0,1], rate >= 0");
        }
    }

    public static CacheKey key(int i) {
        return CacheKey.of("member:" + i);
    }

    /** Commits into {@code sot} until done or {@code limit} has passed; returns the commits made. */
    public long run(SourceOfTruth sot, Random random, Duration limit) {
        KeyChooser chooser = new KeyChooser(keys, skew);
        long started = System.nanoTime();
        long deadline = started + limit.toNanos();
        long upgradeAfter = upgradeAt < 0 ? -1 : (long) (commits * upgradeAt);
        long done = 0;
        while (done < commits && System.nanoTime() < deadline) {
            if (done == upgradeAfter && sot.schemaVersion() < SourceOfTruth.SCHEMAS.size()) {
                sot.upgradeSchema();
            }
            CacheKey key = key(chooser.next(random));
            if (random.nextDouble() < deleteRatio) {
                sot.delete(key);
            } else {
                sot.upsert(key, "name-" + random.nextInt(1_000_000), "headline-" + done);
            }
            done++;
            if (ratePerSec > 0) {
                long due = started + done * 1_000_000_000L / ratePerSec;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    try {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
        }
        return done;
    }

    /** Draws key indexes, uniformly or by a Zipf law (a few hot keys, a long tail). */
    static final class KeyChooser {
        private final double[] cumulative;
        private final int keys;

        KeyChooser(int keys, double skew) {
            this.keys = keys;
            if (skew == 0) {
                cumulative = null;
                return;
            }
            cumulative = new double[keys];
            double sum = 0;
            for (int i = 0; i < keys; i++) {
                sum += 1.0 / Math.pow(i + 1, skew);
                cumulative[i] = sum;
            }
            for (int i = 0; i < keys; i++) {
                cumulative[i] /= sum;
            }
        }

        int next(Random random) {
            if (cumulative == null) {
                return random.nextInt(keys);
            }
            int i = Arrays.binarySearch(cumulative, random.nextDouble());
            return Math.min(keys - 1, i >= 0 ? i : -i - 1);
        }
    }
}
