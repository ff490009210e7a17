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
package io.nearline.localcluster.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.cdcbootstrap.core.SnapshotRows;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.schema.InMemorySchemaRegistry;
import io.nearline.common.testkit.ManualClock;
import io.nearline.jobs.checker.Row;
import io.nearline.localcluster.kit.faults.SwitchableStore;
import io.nearline.localcluster.sourcesimulator.SourceOfTruth;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * What the demo reads its verdict and figures from, apart from the job: the snapshot it publishes is
 * the source's rows that exist, each at its version, with the partitions' high-watermarks; the
 * staleness it samples counts a key as behind only where the cache lacks the source's version, and
 * stops sampling while the store is away rather than waiting on it.
 */
class DemoVerdictTest {

    private static final Duration TTL = Duration.ofHours(1);

    private final ManualClock clock = new ManualClock(1_000);
    private final SourceOfTruth sot = new SourceOfTruth(2, new InMemorySchemaRegistry(), clock, e -> {});
    private final InMemoryCacheStore cache = new InMemoryCacheStore();

    private void cacheAsTheSourceHasIt(Row row) {
        cache.upsert(row.key(), CacheRecordCodec.encode(row.toCacheRecord()), TTL);
    }

    @Test
    void theSnapshotIsTheRowsThatExistEachAtItsVersion() {
        Row a = sot.upsert(CacheKey.of("a"), "Ada", "first");
        sot.upsert(CacheKey.of("b"), "Bo", "gone soon");
        sot.delete(CacheKey.of("b"));
        clock.advance(Duration.ofSeconds(1));
        Row a2 = sot.upsert(CacheKey.of("a"), "Ada", "second");
        Row c = sot.upsert(CacheKey.of("c"), "Cy", "third");

        SnapshotRows snapshot = Demo.snapshotOf(sot);
        Map<String, ChangeEvent> rows = new TreeMap<>();
        snapshot.rows().forEach(e -> rows.put(e.getKey().toString(), e));
        assertEquals(java.util.List.of("a", "c"), java.util.List.copyOf(rows.keySet()), "the deleted row is left out");
        assertEquals(a2.version().scn().value(), rows.get("a").getScn(), "the newest version, not " + a.version());
        assertEquals(a2.commitTimeMillis(), rows.get("a").getCommitTimeMillis());
        assertEquals(c.partition(), rows.get("c").getPartition());
        assertEquals(Op.UPSERT, rows.get("c").getOp());
        for (int p = 0; p < sot.partitions(); p++) {
            assertEquals(sot.highWatermark(p), snapshot.highWatermarks().get(p), "partition " + p);
        }
    }

    @Test
    void aKeyIsBehindOnlyWhereTheCacheLacksTheSourcesVersion() {
        Row current = sot.upsert(CacheKey.of("current"), "C", "in the cache");
        cacheAsTheSourceHasIt(current);
        assertTrue(
                Arrays.stream(Demo.sampleStaleness(sot, cache, new Random(1))).allMatch(ms -> ms == 0));

        Row old = sot.upsert(CacheKey.of("old"), "O", "v1");
        cacheAsTheSourceHasIt(old);
        sot.upsert(CacheKey.of("old"), "O", "v2");
        sot.upsert(CacheKey.of("missing"), "M", "never cached");
        Row deleted = sot.upsert(CacheKey.of("deleted"), "D", "then deleted");
        sot.delete(deleted.key()); // absent from the cache, as it should be
        long before = System.currentTimeMillis();
        long[] sample = Demo.sampleStaleness(sot, cache, new Random(2));
        assertEquals(4, sample.length, "one a key, up to 200");
        long behind = Arrays.stream(sample).filter(ms -> ms > 0).count();
        assertTrue(
                behind > 0 && behind < sample.length,
                "some behind (old, missing), some not: " + Arrays.toString(sample));
        for (long ms : sample) {
            assertTrue(ms == 0 || ms >= before - clock.millis(), "behind since its commit: " + ms);
        }
    }

    @Test
    void noSampleIsTakenWhileTheStoreIsAway() {
        sot.upsert(CacheKey.of("a"), "A", "x");
        SwitchableStore away = new SwitchableStore(cache, () -> true, new LongAdder(), k -> false, k -> false);
        assertEquals(0, Demo.sampleStaleness(sot, away, new Random(3)).length);
        assertEquals(
                0,
                Demo.sampleStaleness(
                                new SourceOfTruth(1, new InMemorySchemaRegistry(), clock, e -> {}),
                                cache,
                                new Random(4))
                        .length,
                "an empty source: nothing to sample");
    }
}
