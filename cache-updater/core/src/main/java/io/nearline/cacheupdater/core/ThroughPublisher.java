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

import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.ConsistentThroughEntry;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.StoreException;
import io.nearline.common.version.Version;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Publishes each (table, partition)'s {@code consistent-through} in the store beside the data, where a
 * reader (the client library) can see how far the cache is complete: one entry per table and input
 * partition ({@link ConsistentThroughEntry}), written at most once per {@code every}, and only where the
 * watermark moved. It goes through the ordered write at the watermark's own version, so a task that
 * lags behind the one now owning the partition (after a rebalance) never moves it back.
 *
 * <p>A partition with no new changes keeps its entry's commit time: readers see that time age, which is
 * the truth as far as the job can tell (Debezium's heartbeats would move it; docs/reading.md).
 */
final class ThroughPublisher {

    private final ScnOrderedWriter writer;
    private final String keyPrefix;
    private final long everyMillis;
    private final LongSupplier clock;
    private final Metrics.Counter published;
    private final Metrics.Counter failed;
    private final Map<WriteFreshness.Series, Version> last = new HashMap<>();
    private long lastMillis;

    ThroughPublisher(ScnOrderedWriter writer, String keyPrefix, Duration every, Metrics metrics, LongSupplier clock) {
        this.writer = writer;
        this.keyPrefix = keyPrefix;
        this.everyMillis = every.toMillis();
        this.clock = clock;
        this.published = metrics.counter("consistent-through.published");
        this.failed = metrics.counter("consistent-through.publish-failed");
    }

    /** After a cut is settled: publishes what moved, when {@code every} has passed since the last time. */
    void maybePublish(WriteFreshness freshness) {
        long now = clock.getAsLong();
        if (now - lastMillis < everyMillis) {
            return;
        }
        lastMillis = now;
        freshness.forEachSeries((series, through) -> {
            if (through.version().isNone() || through.version().equals(last.get(series))) {
                return;
            }
            ConsistentThroughEntry entry = new ConsistentThroughEntry(
                    series.table(), series.partition(), through.commitTimeMillis(), through.version(), now);
            CacheKey key = CacheKey.of(ConsistentThroughEntry.key(keyPrefix, series.table(), series.partition()));
            try {
                writer.write(key, CacheRecord.upsert(through.version(), series.partition(), entry.payload()));
                last.put(series, through.version());
                published.inc();
            } catch (StoreException e) { // the data's own writes wait out store trouble; this tries again next time
                failed.inc();
            }
        });
    }
}
