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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.nearline.cacheupdater.core.testkit.FaultyCacheStore;
import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.cacheupdater.core.testkit.KeyHistory;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.version.Version;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Properties of the SCN-ordered write on one key, whatever the delivery order. jqwik prints the
 * seed of a failing try and shrinks it; replay with {@code @Property(seed = "...")}.
 */
class ScnOrderedWriterPropertiesTest {

    private static final CacheKey K = CacheKey.of("k");

    private static CacheRecord finalState(List<CacheRecord> deliveries, FaultyCacheStore store) {
        ScnOrderedWriter writer = new ScnOrderedWriter(
                store, WriterSettings.defaults(), new InMemoryMetrics(), Clock.systemUTC(), d -> {}, new Random(0));
        for (CacheRecord r : deliveries) {
            assertNotEquals(WriteOutcome.FAILED, writer.write(K, r).outcome());
        }
        return CacheRecordCodec.decode(store.get(K).orElseThrow().value());
    }

    @Property(tries = 300)
    void anyPermutationWithDuplicatesEndsAtTheMaximumVersion(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 30) int length) {
        Random random = new Random(seed);
        KeyHistory history = KeyHistory.random(K, random, length, 0.25);
        CacheRecord actual = finalState(history.scrambled(random, 0.5), new FaultyCacheStore(new InMemoryCacheStore()));
        CacheRecord expected = history.winner();
        assertEquals(expected.version(), actual.version());
        assertEquals(expected.tombstone(), actual.tombstone());
        assertArrayEquals(expected.payload(), actual.payload());
    }

    @Property(tries = 100)
    void transientOutagesDoNotChangeTheResult(@ForAll long seed, @ForAll @IntRange(min = 1, max = 20) int length) {
        Random random = new Random(seed);
        KeyHistory history = KeyHistory.random(K, random, length, 0.25);
        FaultyCacheStore store = new FaultyCacheStore(new InMemoryCacheStore());
        ScnOrderedWriter writer = new ScnOrderedWriter(
                store, WriterSettings.defaults(), new InMemoryMetrics(), Clock.systemUTC(), d -> {}, random);
        for (CacheRecord r : history.scrambled(random, 0.3)) {
            store.failNext(random.nextInt(4)); // fewer than max attempts: must still land
            assertNotEquals(WriteOutcome.FAILED, writer.write(K, r).outcome());
        }
        store.failNext(0);
        assertEquals(
                history.winner().version(),
                CacheRecordCodec.decode(store.get(K).orElseThrow().value()).version());
    }

    @Property(tries = 100)
    void aDeleteFollowedByOlderUpsertsStaysDeleted(
            @ForAll @IntRange(min = 1, max = 1000) int deleteScn,
            @ForAll @IntRange(min = 1, max = 10) int olderUpserts) {
        FaultyCacheStore store = new FaultyCacheStore(new InMemoryCacheStore());
        List<CacheRecord> deliveries = new ArrayList<>();
        deliveries.add(KeyHistory.record(K, Version.of(deleteScn, 1), true));
        for (int i = 0; i < olderUpserts; i++) {
            deliveries.add(KeyHistory.record(K, Version.of(Math.max(0, deleteScn - 1 - i), 5), false));
        }
        CacheRecord actual = finalState(deliveries, store);
        assertEquals(Version.of(deleteScn, 1), actual.version());
        assertEquals(true, actual.tombstone());
    }

    @Property(tries = 100)
    void equalScnWithAHigherSchemaVersionWinsInEitherOrder(
            @ForAll @IntRange(max = 1_000_000) int scn,
            @ForAll @IntRange(min = 1, max = 50) int schema,
            @ForAll boolean newerFirst) {
        CacheRecord older = KeyHistory.record(K, Version.of(scn, schema), false);
        CacheRecord newer = KeyHistory.record(K, Version.of(scn, schema + 1), false);
        List<CacheRecord> order = newerFirst ? List.of(newer, older) : List.of(older, newer);
        CacheRecord actual = finalState(order, new FaultyCacheStore(new InMemoryCacheStore()));
        assertEquals(Version.of(scn, schema + 1), actual.version());
        assertArrayEquals(newer.payload(), actual.payload());
    }
}
