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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.cacheupdater.core.testkit.KeyHistory;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.version.Version;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Why {@code cdc.debezium.null-value=delete} is refused (docs/debezium.md#unwrap): the three ways a
 * delete without a version loses a row under at-least-once delivery, each played twice against the
 * ordered write. Versioned, as the unwrap transform's {@code rewrite} mode keeps it, the delete holds in
 * all three. Unversioned, as the refused setting once wrote it (a tombstone just above whatever the
 * cache held when it came), each scenario ends with the table's row gone or a deleted row back: the
 * control, emulated here since the job no longer has that path.
 */
class UnversionedDeletesTest {

    private static final CacheKey K = CacheKey.of("public.items:5");

    /** One key of a cache, written through the ordered write. */
    private static final class Cache {
        private final InMemoryCacheStore store = new InMemoryCacheStore();
        private final ScnOrderedWriter writer = new ScnOrderedWriter(
                store, WriterSettings.defaults().withTtl(Duration.ofHours(1)), new InMemoryMetrics());

        void upsert(long scn) {
            writer.write(K, KeyHistory.record(K, Version.of(scn, 0), false));
        }

        /** The delete as the rewrite form carries it: at its own commit's version. */
        void versionedDelete(long scn) {
            writer.write(K, CacheRecord.tombstone(Version.of(scn, 0), 0));
        }

        /** The delete as the refused setting wrote it: above what is cached now, nothing where nothing live is. */
        void unversionedDelete() {
            Optional<CacheRecord> held = cached();
            if (held.isPresent() && !held.get().tombstone()) {
                Version v = held.get().version();
                writer.write(K, CacheRecord.tombstone(Version.of(v.scn().value(), v.seq(), v.schemaVersion() + 1), 0));
            }
        }

        Optional<CacheRecord> cached() {
            return store.get(K).map(v -> CacheRecordCodec.decode(v.value()));
        }

        boolean live() {
            return cached().map(r -> !r.tombstone()).orElse(false);
        }
    }

    /** 1. The delete sent again after the row was inserted anew (a restart, a rebalance). */
    @Test
    void aDeleteSentAgainAfterANewerRow() {
        Cache versioned = new Cache();
        versioned.upsert(5);
        versioned.versionedDelete(6);
        versioned.upsert(7);
        versioned.versionedDelete(6); // redelivered
        assertTrue(versioned.live(), "versioned: the newer row stays");

        Cache unversioned = new Cache();
        unversioned.upsert(5);
        unversioned.unversionedDelete();
        unversioned.upsert(7);
        unversioned.unversionedDelete(); // redelivered
        assertFalse(unversioned.live(), "unversioned: the row the table has is gone");
        unversioned.upsert(7); // and its own redelivery cannot bring it back
        assertFalse(unversioned.live(), "unversioned: the row's redelivery is stale against the tombstone");
    }

    /**
     * 2. An update and the delete in one batch: the delete replaces the update, so its tombstone sits
     * only above the older cached row, and a bootstrap row from between the two brings the row back.
     */
    @Test
    void aDeleteThatReplacedAnUpdateInItsBatch() {
        Cache versioned = new Cache();
        versioned.upsert(5);
        versioned.versionedDelete(8); // the update at 7 superseded in the batch
        versioned.upsert(6); // a bootstrap's row, read between the cached row and the update
        assertFalse(versioned.live(), "versioned: the delete stays");

        Cache unversioned = new Cache();
        unversioned.upsert(5);
        unversioned.unversionedDelete(); // its tombstone just above 5
        unversioned.upsert(6);
        assertTrue(unversioned.live(), "unversioned: the deleted row is back");
    }

    /** 3. A fresh cache being bootstrapped: the delete finds nothing, the snapshot's older row comes after. */
    @Test
    void aDeleteOnACacheThatHoldsNothingYet() {
        Cache versioned = new Cache();
        versioned.versionedDelete(8);
        versioned.upsert(3); // the snapshot's row
        assertFalse(versioned.live(), "versioned: the tombstone is remembered");

        Cache unversioned = new Cache();
        unversioned.unversionedDelete(); // writes nothing
        unversioned.upsert(3);
        assertTrue(unversioned.live(), "unversioned: the deleted row is back until its TTL");
        assertEquals(Version.of(3, 0), unversioned.cached().orElseThrow().version());
    }
}
