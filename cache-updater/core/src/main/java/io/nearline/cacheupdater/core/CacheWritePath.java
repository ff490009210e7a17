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

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.config.Config;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreOpener;
import java.io.Serializable;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;

/**
 * The cache updater's write path as every runtime opens it from its settings: the store (as the
 * job's {@link StoreOpener} opens it), the SCN-ordered write over it and the per-key batch in front of it. Flink's
 * operator, Samza's task and the Kafka Connect task each open one and keep only what their runtime
 * needs around it (when to flush, where dead letters go, what a commit may cover).
 */
public final class CacheWritePath implements AutoCloseable {

    private final CacheStore store;
    private final UpdateBatch batch;
    private final int batchMaxKeys;

    /** A path over a store and a batch made by hand (the core's tests); {@link #open} is the runtimes' way. */
    CacheWritePath(CacheStore store, UpdateBatch batch, int batchMaxKeys) {
        this.store = store;
        this.batch = batch;
        this.batchMaxKeys = batchMaxKeys;
    }

    /**
     * What a task's write path is opened with, read from the job's settings once where the job is
     * defined (an engine ships it to every task): how to open the store and with which of the job's
     * settings (the store's own are read by its provider when a task connects), the ordered write's
     * settings and the batch's.
     */
    public record Settings(
            StoreOpener cache,
            HashMap<String, String> storeConfig,
            WriterSettings writer,
            Duration maxPause,
            int writeThreads,
            int maxInFlight,
            boolean freshnessMetrics,
            int batchMaxKeys,
            Duration batchMaxDelay,
            Publishing publishing)
            implements Serializable {

        /** The write path's settings of {@code config}; {@code cache} opens the store. */
        public static Settings of(Config config, StoreOpener cache) {
            return new Settings(
                    cache,
                    new HashMap<>(config.asMap()),
                    WriterSettings.from(config).withTtlByKeyPrefix(CacheUpdaterSettings.ttlByKeyPrefix(config)),
                    config.get(CacheUpdaterSettings.MAX_PAUSE),
                    config.get(CacheUpdaterSettings.WRITE_THREADS),
                    config.get(CacheUpdaterSettings.MAX_IN_FLIGHT),
                    config.get(CacheUpdaterSettings.FRESHNESS_METRICS),
                    config.get(CacheUpdaterSettings.BATCH_MAX_KEYS),
                    config.get(CacheUpdaterSettings.BATCH_MAX_DELAY),
                    new Publishing(
                            config.get(CacheUpdaterSettings.PUBLISH_THROUGH_KEY_PREFIX),
                            config.get(CacheUpdaterSettings.PUBLISH_THROUGH_EVERY)));
        }
    }

    /** Where and how often the path publishes consistent-through for readers; {@code every} 0: never. */
    public record Publishing(String keyPrefix, Duration every) implements Serializable {}

    /** Opens the store and the batch of a task; closing the path closes both. */
    public static CacheWritePath open(Settings settings, Metrics metrics) {
        CacheStore store = settings.cache().open(Config.of(settings.storeConfig()));
        try {
            UpdateBatch batch = new UpdateBatch(
                    new ScnOrderedWriter(store, settings.writer(), metrics),
                    metrics,
                    settings.maxPause(),
                    settings.writeThreads(),
                    settings.maxInFlight(),
                    settings.freshnessMetrics());
            if (!settings.publishing().every().isZero()) {
                batch.publishingThrough(
                        settings.publishing().keyPrefix(), settings.publishing().every(), metrics);
            }
            return new CacheWritePath(store, batch, settings.batchMaxKeys());
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** {@link #open(Settings, Metrics)} with the settings read here: for an engine whose tasks get the job's settings. */
    public static CacheWritePath open(Config config, StoreOpener cache, Metrics metrics) {
        return open(Settings.of(config, cache), metrics);
    }

    /**
     * Adds a decoded change to the batch. With {@code refreshTtl} (a bootstrap row) an equal version
     * in the store is rewritten so that its TTL starts again.
     */
    public void add(ChangeEvent event, SourceRecord source, boolean refreshTtl) {
        add(ChangeEvents.cacheKey(event), UpdateBatch.Pending.of(event, source, refreshTtl));
    }

    /** Adds a change made ready where it was decoded (an engine's task upstream of this one). */
    public void add(CacheKey key, UpdateBatch.Pending change) {
        batch.add(key, change);
    }

    /** Whether the batch holds {@code write.batch.max-keys} keys: time to cut it. */
    public boolean full() {
        return batch.size() >= batchMaxKeys;
    }

    public boolean isEmpty() {
        return batch.isEmpty();
    }

    /** Writes everything pending on the caller's thread; blocks through store trouble. @return what the store refused for good */
    public List<UpdateBatch.Refused> flush() throws InterruptedException {
        return batch.flush();
    }

    /** Takes everything pending out of the batch, for {@link #write} (see {@link BackgroundWrites}). */
    UpdateBatch.Cut cut() {
        return batch.cut();
    }

    List<UpdateBatch.Refused> write(UpdateBatch.Cut cut) throws InterruptedException {
        return batch.write(cut);
    }

    @Override
    public void close() {
        try {
            batch.close();
        } finally {
            store.close();
        }
    }
}
