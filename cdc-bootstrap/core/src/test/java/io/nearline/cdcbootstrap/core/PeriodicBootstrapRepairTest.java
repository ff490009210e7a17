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
package io.nearline.cdcbootstrap.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.Sleeper;
import io.nearline.cacheupdater.core.WriteOutcome;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.cacheupdater.core.testkit.KeyHistory;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.testkit.ManualClock;
import io.nearline.common.testkit.Seeds;
import io.nearline.common.version.Version;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * Why the bootstrap is periodic and shorter than the TTL: deletes that never reached the cache leave
 * rows behind; the next bootstrap rewrites every row that exists (restarting its TTL), the left-over
 * rows are not rewritten and expire. And a bootstrap racing live updates never wins over a newer one.
 */
class PeriodicBootstrapRepairTest {

    private static final Duration TTL = Duration.ofDays(7);
    private static final WriterSettings SETTINGS = new WriterSettings(
            TTL,
            WriterSettings.defaults().maxAttempts(),
            WriterSettings.defaults().backoff());

    private static CacheKey key(int i) {
        return CacheKey.of("member:" + i);
    }

    /** What the cache holds for a key: its version, or empty when absent or expired. */
    private static Optional<Version> held(InMemoryCacheStore store, CacheKey k) {
        return store.get(k).map(s -> CacheRecordCodec.decodeVersion(s.value()));
    }

    @Test
    void lostDeletesAreRepairedByTheNextBootstrapAndTheTtl() {
        ManualClock clock = new ManualClock();
        InMemoryCacheStore store = new InMemoryCacheStore(clock);
        ScnOrderedWriter live = new ScnOrderedWriter(store, SETTINGS, Metrics.NONE, clock, Sleeper.REAL, null);
        // day 0: 100 rows reach the cache
        for (int i = 0; i < 100; i++) {
            live.write(key(i), KeyHistory.record(key(i), Version.of(10 + i, 1), false));
        }
        // the source deletes every tenth row; those deletes are lost (a retention outage): the cache keeps them
        Map<Integer, Version> truth = new TreeMap<>();
        for (int i = 0; i < 100; i++) {
            if (i % 10 != 0) {
                truth.put(i, Version.of(10 + i, 1));
            }
        }
        // day 3 (period 3 days < TTL 7 days): a bootstrap rewrites every row that exists, unchanged
        clock.advance(Duration.ofDays(3));
        ScnOrderedWriter bootstrap = new ScnOrderedWriter(store, SETTINGS, Metrics.NONE, clock, Sleeper.REAL, null);
        truth.forEach((i, v) -> assertEquals(
                WriteOutcome.REFRESHED,
                bootstrap
                        .write(key(i), KeyHistory.record(key(i), v, false), true)
                        .outcome()));
        // day 8: the rows written on day 0 and never rewritten expired; the rest are held until day 10
        clock.advance(Duration.ofDays(5));
        for (int i = 0; i < 100; i++) {
            assertEquals(Optional.ofNullable(truth.get(i)), held(store, key(i)), "member:" + i);
        }
    }

    @Test
    void withoutTheRefreshUnchangedRowsWouldExpireToo() {
        ManualClock clock = new ManualClock();
        InMemoryCacheStore store = new InMemoryCacheStore(clock);
        ScnOrderedWriter writer = new ScnOrderedWriter(store, SETTINGS, Metrics.NONE, clock, Sleeper.REAL, null);
        CacheRecord row = KeyHistory.record(key(1), Version.of(5, 1), false);
        writer.write(key(1), row);
        clock.advance(Duration.ofDays(3));
        assertEquals(WriteOutcome.DUPLICATE, writer.write(key(1), row).outcome(), "a plain replay writes nothing");
        clock.advance(Duration.ofDays(5));
        assertEquals(Optional.empty(), held(store, key(1)), "so the row expired although it still exists");
    }

    /**
     * A bootstrap (rows as of a snapshot, TTL refresh on) races a burst of live updates to the same
     * keys from another thread: every key ends at the newest version either side wrote.
     */
    @Property(tries = 30)
    void aBootstrapRacingABurstOfLiveUpdatesNeverWinsOverANewerOne(@ForAll long seed) throws Exception {
        Random random = new Random(seed);
        InMemoryCacheStore store = new InMemoryCacheStore();
        int keys = 20;
        List<CacheRecord> snapshot = new ArrayList<>();
        List<List<CacheRecord>> burst = new ArrayList<>();
        Map<Integer, Version> newest = new TreeMap<>();
        for (int i = 0; i < keys; i++) {
            long hw = 50 + random.nextInt(50);
            snapshot.add(KeyHistory.record(key(i), Version.of(hw, 1), false));
            List<CacheRecord> updates = new ArrayList<>();
            long scn = hw - 5 + random.nextInt(10); // some before the high-watermark (older), some after
            for (int u = 0; u < 1 + random.nextInt(5); u++) {
                scn += random.nextInt(3);
                updates.add(KeyHistory.record(key(i), Version.of(scn, 1), random.nextInt(6) == 0));
            }
            burst.add(updates);
            Version max = Version.of(hw, 1);
            for (CacheRecord r : updates) {
                max = r.version().compareTo(max) > 0 ? r.version() : max;
            }
            newest.put(i, max);
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch start = new CountDownLatch(1);
        try {
            Future<?> liveSide = pool.submit(() -> {
                ScnOrderedWriter live = new ScnOrderedWriter(store, SETTINGS, Metrics.NONE);
                start.await();
                for (int i = 0; i < keys; i++) {
                    for (CacheRecord r : burst.get(i)) {
                        live.write(key(i), r);
                    }
                }
                return null;
            });
            Future<?> bootstrapSide = pool.submit(() -> {
                ScnOrderedWriter bootstrap = new ScnOrderedWriter(store, SETTINGS, Metrics.NONE);
                start.await();
                for (int i = keys - 1; i >= 0; i--) {
                    bootstrap.write(key(i), snapshot.get(i), true);
                }
                return null;
            });
            start.countDown();
            liveSide.get();
            bootstrapSide.get();
        } finally {
            pool.shutdownNow();
        }
        for (int i = 0; i < keys; i++) {
            assertEquals(Optional.of(newest.get(i)), held(store, key(i)), "member:" + i + " " + Seeds.replay(seed));
        }
    }
}
