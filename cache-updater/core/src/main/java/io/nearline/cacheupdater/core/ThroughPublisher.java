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
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Publishes this task's {@code consistent-through} for each (table, partition) in the store beside the
 * data, where a reader (the client library) can see how far the cache is complete: one entry per table,
 * input partition and writing task ({@link ConsistentThroughEntry}), written once per {@code every}
 * through the ordered write at the watermark's own version (an unchanged one rewritten, so its expiry
 * starts again). A task's watermark covers only the changes it took: where an engine spreads a
 * partition over several tasks by key (Flink), each has its own entry and readers take the oldest. The
 * entries expire soon after a task stops publishing (a restarted task is a new writer), so a task that
 * is gone does not hold readers back for the cache's whole TTL.
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
    private final String writerId = java.util.UUID.randomUUID().toString().substring(0, 8);
    private long lastMillis;

    /** @param writer the ordered write with the entries' own short TTL ({@link #entryTtl}) */
    ThroughPublisher(ScnOrderedWriter writer, String keyPrefix, Duration every, Metrics metrics, LongSupplier clock) {
        this.writer = writer;
        this.keyPrefix = keyPrefix;
        this.everyMillis = every.toMillis();
        this.clock = clock;
        this.published = metrics.counter("consistent-through.published");
        this.failed = metrics.counter("consistent-through.publish-failed");
    }

    /** How long an entry outlives its last publishing: ten intervals, at least half a minute. */
    static Duration entryTtl(Duration every) {
        Duration ten = every.multipliedBy(10);
        return ten.compareTo(Duration.ofSeconds(30)) < 0 ? Duration.ofSeconds(30) : ten;
    }

    /** After a cut is settled: publishes every series, when {@code every} has passed since the last time. */
    void maybePublish(WriteFreshness freshness) {
        long now = clock.getAsLong();
        if (now - lastMillis < everyMillis) {
            return;
        }
        lastMillis = now;
        freshness.forEachSeries((series, through) -> {
            if (through.version().isNone()) {
                return;
            }
            ConsistentThroughEntry entry = new ConsistentThroughEntry(
                    series.table(), series.partition(), writerId, through.commitTimeMillis(), through.version(), now);
            CacheKey key =
                    CacheKey.of(ConsistentThroughEntry.key(keyPrefix, series.table(), series.partition(), writerId));
            try {
                writer.write(key, CacheRecord.upsert(through.version(), series.partition(), entry.payload()), true);
                published.inc();
            } catch (StoreException e) { // the data's own writes wait out store trouble; this tries again next time
                failed.inc();
            }
        });
    }
}
