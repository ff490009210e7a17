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
package io.nearline.localcluster.bench;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.config.Config;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import io.nearline.jobs.kit.console.RateMeter;
import io.nearline.localcluster.cdcreference.ReplayInput;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The store's own ceiling for the cache updater's work: the same change events written straight
 * through the SCN-ordered write into a fresh store with the job's default settings, by {@code threads}
 * threads, each key's events on one thread in file order (as a job's partitions keep them); no Kafka,
 * no engine, no decoding from the wire. A store that blocks (RocksDB) gets one write per event; one
 * that writes asynchronously (Couchbase) gets the job's own batches, {@code write.batch.max-keys} keys
 * at a time with up to {@code write.max-in-flight} writes in flight per thread: a plain client of the
 * store doing get and CAS replace as concurrently as the job. What a job could reach at best here:
 * {@code bench cdc} reports job/ceiling. Rated like the job, between 10 % and 90 % of the writes.
 *
 * <p>{@link #measureBlind} is the same work with the version check taken out: the same shards,
 * batches, keys and value bytes, written as blind upserts through the same client with the same
 * writes in flight: the store's physical limit, against which the ordered write's cost is read.
 */
final class StoreCeiling {

    private StoreCeiling() {}

    static double measure(Path events, Config config, int threads) throws InterruptedException {
        List<List<ChangeEvent>> shards = shards(events, threads);
        long total = shards.stream().mapToLong(List::size).sum();
        AtomicLong written = new AtomicLong();
        try (CacheStore store = CacheStores.open(config);
                RateMeter meter = new RateMeter(total, written::get)) {
            ScnOrderedWriter writer = new ScnOrderedWriter(store, WriterSettings.from(config), Metrics.NONE);
            List<Thread> workers = new ArrayList<>();
            for (List<ChangeEvent> shard : shards) {
                Thread worker = new Thread(
                        () -> {
                            if (writer.isAsync()) {
                                writeBatched(writer, config, shard, written);
                                return;
                            }
                            for (ChangeEvent e : shard) {
                                writer.write(ChangeEvents.cacheKey(e), ChangeEvents.cacheRecord(e));
                                written.incrementAndGet();
                            }
                        },
                        "ceiling-writer");
                worker.start();
                workers.add(worker);
            }
            for (Thread worker : workers) {
                worker.join();
            }
            Thread.sleep(20); // the meter samples every 5 ms: let it see the last count
            return meter.steadyRate();
        }
    }

    /** Each key's events on one of {@code threads} shards, in file order. */
    private static List<List<ChangeEvent>> shards(Path events, int threads) {
        List<List<ChangeEvent>> shards = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            shards.add(new ArrayList<>());
        }
        for (ReplayInput.Line line : ReplayInput.read(List.of(events))) {
            if (line.decoded() != null && line.decoded().ok()) {
                ChangeEvent e = line.decoded().event();
                shards.get(Math.floorMod(e.getKey().hashCode(), threads)).add(e);
            }
        }
        return shards;
    }

    /** The blind ceiling: the same batches as {@link #measure}, each key's newest record upserted without a version check. */
    static double measureBlind(Path events, Config config, int threads) throws InterruptedException {
        List<List<ChangeEvent>> shards = shards(events, threads);
        long total = shards.stream().mapToLong(List::size).sum();
        int batchKeys = config.get(CacheUpdaterSettings.BATCH_MAX_KEYS);
        int maxInFlight = config.get(CacheUpdaterSettings.MAX_IN_FLIGHT);
        Duration ttl = WriterSettings.from(config).ttl();
        AtomicLong written = new AtomicLong();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        try (CacheStore store = CacheStores.open(config);
                RateMeter meter = new RateMeter(total, written::get)) {
            List<Thread> workers = new ArrayList<>();
            for (List<ChangeEvent> shard : shards) {
                Thread worker = new Thread(
                        () -> {
                            Map<CacheKey, CacheRecord> batch = new LinkedHashMap<>();
                            long added = 0;
                            for (int i = 0; i < shard.size() && failed.get() == null; i++) {
                                ChangeEvent e = shard.get(i);
                                batch.merge(ChangeEvents.cacheKey(e), ChangeEvents.cacheRecord(e), StoreCeiling::newer);
                                added++;
                                if (batch.size() >= batchKeys || i == shard.size() - 1) {
                                    upsertAll(store, batch, ttl, maxInFlight, failed);
                                    written.addAndGet(added);
                                    batch.clear();
                                    added = 0;
                                }
                            }
                        },
                        "blind-writer");
                worker.start();
                workers.add(worker);
            }
            for (Thread worker : workers) {
                worker.join();
            }
            if (failed.get() != null) {
                throw new IllegalStateException(
                        "a blind write of the ceiling run failed: " + failed.get(), failed.get());
            }
            Thread.sleep(20); // the meter samples every 5 ms: let it see the last count
            return meter.steadyRate();
        }
    }

    private static CacheRecord newer(CacheRecord a, CacheRecord b) {
        return b.version().compareTo(a.version()) > 0 ? b : a;
    }

    /** One batch of blind upserts, at most {@code maxInFlight} at a time; returns when all are done. */
    private static void upsertAll(
            CacheStore store,
            Map<CacheKey, CacheRecord> batch,
            Duration ttl,
            int maxInFlight,
            AtomicReference<Throwable> failed) {
        Semaphore slots = new Semaphore(maxInFlight);
        CountDownLatch done = new CountDownLatch(batch.size());
        long now = System.currentTimeMillis();
        try {
            for (Map.Entry<CacheKey, CacheRecord> write : batch.entrySet()) {
                slots.acquire();
                store.upsertAsync(
                                write.getKey(),
                                CacheRecordCodec.encode(write.getValue().withWriteTime(now)),
                                ttl)
                        .whenComplete((r, e) -> {
                            if (e != null) {
                                failed.compareAndSet(null, e);
                            }
                            slots.release();
                            done.countDown();
                        });
            }
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void writeBatched(
            ScnOrderedWriter writer, Config config, List<ChangeEvent> shard, AtomicLong written) {
        int batchKeys = config.get(CacheUpdaterSettings.BATCH_MAX_KEYS);
        try (UpdateBatch batch = new UpdateBatch(
                writer,
                Metrics.NONE,
                config.get(CacheUpdaterSettings.MAX_PAUSE),
                1,
                config.get(CacheUpdaterSettings.MAX_IN_FLIGHT))) {
            long added = 0;
            for (int i = 0; i < shard.size(); i++) {
                ChangeEvent e = shard.get(i);
                batch.add(ChangeEvents.cacheKey(e), UpdateBatch.Pending.of(e, null, false));
                added++;
                if (batch.size() >= batchKeys || i == shard.size() - 1) {
                    if (!batch.flush().isEmpty()) {
                        throw new IllegalStateException("the store refused a write of the ceiling run");
                    }
                    written.addAndGet(added);
                    added = 0;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
