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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.schema.InMemorySchemaRegistry;
import io.nearline.common.testkit.ManualClock;
import io.nearline.jobs.checker.CacheView;
import io.nearline.jobs.checker.Row;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ReadRepairTest {

    private final ManualClock clock = new ManualClock();
    private final SourceOfTruth sot = new SourceOfTruth(2, new InMemorySchemaRegistry(), clock, e -> {});
    private final InMemoryCacheStore cache = new InMemoryCacheStore(clock);
    private final InMemoryMetrics metrics = new InMemoryMetrics();
    private final ScnOrderedWriter writer = new ScnOrderedWriter(
            cache, WriterSettings.defaults(), new InMemoryMetrics(), clock, d -> {}, new Random(1));
    private final ReadRepair reader = new ReadRepair(sot, cache, writer, Duration.ofSeconds(10), clock, metrics);

    @Test
    void aMissIsServedFromTheSourceAndWrittenBack() {
        CacheKey k = CacheKey.of("member:1");
        Row row = sot.upsert(k, "Ada", "");
        ReadRepair.Result first = reader.read(k);
        assertFalse(first.fromCache());
        assertEquals(row.version(), first.record().orElseThrow().version());
        ReadRepair.Result second = reader.read(k);
        assertTrue(second.fromCache());
        assertEquals(1, metrics.count("read.miss"));
        assertEquals(1, metrics.count("read.hit"));
        assertEquals(1, metrics.count("read.repaired"));
    }

    @Test
    void aRecordOlderThanTheBoundIsRefreshedButNeverRegressed() {
        CacheKey k = CacheKey.of("member:2");
        sot.upsert(k, "v1", "");
        reader.read(k);
        Row newer = sot.upsert(k, "v2", "");
        clock.advance(Duration.ofSeconds(11));
        ReadRepair.Result r = reader.read(k);
        assertFalse(r.fromCache());
        assertEquals(newer.version(), r.record().orElseThrow().version());
        assertEquals(1, metrics.count("read.too-stale"));
        assertEquals(newer.version(), CacheView.of(cache).get(k).orElseThrow().version());
    }

    @Test
    void aDeletedRowIsRepairedAsATombstone() {
        CacheKey k = CacheKey.of("member:3");
        sot.upsert(k, "x", "");
        sot.delete(k);
        reader.read(k);
        assertTrue(CacheView.of(cache).get(k).orElseThrow().tombstone());
    }
}
