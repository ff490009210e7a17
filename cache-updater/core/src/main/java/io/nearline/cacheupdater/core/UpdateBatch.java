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
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.events.PartialImages;
import io.nearline.common.events.Rejection;
import io.nearline.common.metrics.CounterFamily;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes waiting to be written, at most one per key: a newer version replaces an older one in the
 * batch (the older one could only end STALE anyway), counted as {@code write.superseded}.
 * {@link #flush} writes every key through the SCN-ordered write, different keys in parallel, and
 * returns only when each write is durable — so an engine may commit its input position right after.
 * Then every change added since the last flush is counted done: {@code events.written} for change
 * events, {@code bootstrap.written} for bootstrap rows (superseded and refused ones included), and the
 * change events' freshness and their partitions' {@code consistent-through} move ({@link WriteFreshness});
 * {@code table.writes} counts each table's writes by outcome.
 *
 * <p>Writes go out in one chunk per write thread, each chunk written key by key: a thread hand-off per
 * key would cost more than an embedded store's write. With one thread the caller writes inline. A
 * networked store that writes asynchronously ({@link ScnOrderedWriter#isAsync}) gets every key's write
 * from the calling thread instead, at most {@code maxInFlight} at a time: a round trip per key no longer
 * costs a thread.
 *
 * <p>{@link #cut} and {@link #write} split a flush in two for an engine that writes on another thread
 * while the next batch fills (Samza's asynchronous task): cut under the caller's lock, write the cuts
 * one at a time in the order they were cut, so each key's writes stay in order.
 *
 * <p>Failures: a transient one (store unavailable, conflicts beyond the retry budget) is retried with
 * growing pauses until it succeeds; the flush blocks meanwhile, so the job stops pulling input instead
 * of dropping it. A permanent one (the store refuses the write for good) is returned for dead-lettering.
 * Not thread-safe: one batch per task (adds and cuts on one thread or under one lock, cuts written one
 * at a time). Close it to stop its write threads.
 */
public final class UpdateBatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(UpdateBatch.class);

    /** Change events whose write is done (after the write, on every engine). */
    public static final String WRITTEN = "events.written";
    /** Bootstrap rows whose write is done. */
    public static final String BOOTSTRAP_WRITTEN = "bootstrap.written";
    /** Bootstrap rows the cache did not hold at their version when written (a warm-up, or a repair). */
    public static final String BOOTSTRAP_APPLIED = "bootstrap.applied";

    /**
     * A change waiting in the batch: what its write and its counters need (its table, its commit
     * time, the record to write), with the record it came from (for a dead letter). With
     * {@code refreshTtl} (a bootstrap row) an equal version in the store is rewritten so its TTL
     * starts again; otherwise it is left alone. Made once, where the change is decoded: an engine
     * that moves changes between tasks moves this.
     */
    public record Pending(
            String table, long commitTimeMillis, CacheRecord record, SourceRecord source, boolean refreshTtl) {

        /** The change {@code event}, read as {@code source}, to be written as {@code record}. */
        public static Pending of(ChangeEvent event, CacheRecord record, SourceRecord source, boolean refreshTtl) {
            return new Pending(event.getTable(), event.getCommitTimeMillis(), record, source, refreshTtl);
        }

        /** The change {@code event}, read as {@code source}, to be written as its cache record. */
        public static Pending of(ChangeEvent event, SourceRecord source, boolean refreshTtl) {
            return of(event, ChangeEvents.cacheRecord(event), source, refreshTtl);
        }
    }

    /** A change the store refused for good. */
    public record Refused(Pending change, Rejection rejection) {}

    /** The changes taken out of the batch by {@link #cut}, to be written by {@link #write}. */
    public record Cut(
            List<Map.Entry<CacheKey, Pending>> changes, long events, long rows, List<WriteFreshness.Taken> taken) {}

    private final ScnOrderedWriter writer;
    private final Metrics.Counter superseded;
    private final Metrics.Counter eventsWritten;
    private final Metrics.Counter rowsWritten;
    private final Metrics.Counter rowsApplied;
    private long addedEvents;
    private long addedRows;
    private final WriteFreshness freshness;
    /**
     * Each source table's writes by outcome: {@code applied}, {@code stale}, {@code duplicate},
     * {@code refreshed}, {@code superseded} in the batch, {@code refused} by the store for good. The
     * job-wide {@code write.*} counters stay; these say which table a stale storm or a refusal comes from.
     */
    private final CounterFamily tableWrites;
    /** The change events added since the last cut, for their freshness once written. */
    private List<WriteFreshness.Taken> taken = new ArrayList<>();

    private final Duration maxPause;
    private final Map<CacheKey, Pending> pending = new LinkedHashMap<>();
    private final int threads;
    private final ExecutorService pool;
    private final int maxInFlight;
    /** Where an asynchronous write waits before it is tried again; null for a blocking store. */
    private final ScheduledExecutorService retryTimer;

    /** Default of {@code write.max-in-flight}. */
    public static final int MAX_IN_FLIGHT = 256;

    /**
     * Keys handed to the writer at once by an asynchronous write (Redis: one function call). On Redis 7
     * on loopback, 16 to 64 keys a call took the server's time per key from about 5.3 to 4.3 µs; more
     * keys gain little and hold the first key's reply longer.
     */
    static final int KEYS_PER_CALL = 32;

    public UpdateBatch(ScnOrderedWriter writer, Metrics metrics, Duration maxPause, int writeThreads) {
        this(writer, metrics, maxPause, writeThreads, MAX_IN_FLIGHT);
    }

    public UpdateBatch(ScnOrderedWriter writer, Metrics metrics, Duration maxPause, int writeThreads, int maxInFlight) {
        this(writer, metrics, maxPause, writeThreads, maxInFlight, true);
    }

    /** @param measureFreshness {@code write.freshness-metrics}: false leaves freshness, consistent-through and table.writes out */
    public UpdateBatch(
            ScnOrderedWriter writer,
            Metrics metrics,
            Duration maxPause,
            int writeThreads,
            int maxInFlight,
            boolean measureFreshness) {
        this.writer = writer;
        this.superseded = metrics.counter("write.superseded");
        this.eventsWritten = metrics.counter(WRITTEN);
        this.rowsWritten = metrics.counter(BOOTSTRAP_WRITTEN);
        this.rowsApplied = metrics.counter(BOOTSTRAP_APPLIED);
        this.freshness = measureFreshness ? new WriteFreshness(metrics, System::currentTimeMillis) : null;
        this.tableWrites = measureFreshness ? new CounterFamily(metrics, "table.writes", "table", "outcome") : null;
        this.maxPause = maxPause;
        this.maxInFlight = maxInFlight;
        this.retryTimer = writer.isAsync()
                ? Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "cache-write-retry");
                    t.setDaemon(true);
                    return t;
                })
                : null;
        this.threads = writeThreads;
        this.pool = writeThreads <= 1 || writer.isAsync()
                ? null
                : Executors.newFixedThreadPool(writeThreads, r -> {
                    Thread t = new Thread(r, "cache-write");
                    t.setDaemon(true);
                    return t;
                });
    }

    public void add(CacheKey key, Pending change) {
        if (change.refreshTtl()) {
            addedRows++;
        } else {
            addedEvents++;
            if (freshness != null) {
                taken.add(freshness.taken(
                        change.table(),
                        change.source() == null ? 0 : change.source().partition(),
                        change.commitTimeMillis()));
            }
        }
        Pending before = pending.get(key);
        if (before == null
                || change.record().version().isNewerThan(before.record().version())) {
            pending.put(key, before == null ? change : filledFrom(change, before));
        }
        if (before != null) {
            superseded.inc();
            countTable(change.table(), "superseded");
        }
    }

    public int size() {
        return pending.size();
    }

    /**
     * A newer row with uncaptured columns takes them from the row it supersedes in the batch: that row
     * is the newer, and it never reaches the store to complete it from there.
     */
    private static Pending filledFrom(Pending change, Pending before) {
        CacheRecord newer = change.record();
        CacheRecord older = before.record();
        if (newer.tombstone() || older.tombstone() || !PartialImages.isPartial(newer.payload())) {
            return change;
        }
        byte[] filled = PartialImages.filledFrom(newer.payload(), older.payload());
        return filled == null
                ? change
                : new Pending(
                        change.table(),
                        change.commitTimeMillis(),
                        new CacheRecord(
                                newer.version(), false, newer.sourcePartition(), newer.writeTimeMillis(), filled),
                        change.source(),
                        change.refreshTtl());
    }

    public boolean isEmpty() {
        return pending.isEmpty();
    }

    /** Writes everything pending; blocks through transient store trouble. @return what the store refused for good */
    public List<Refused> flush() throws InterruptedException {
        return write(cut());
    }

    /** Takes everything pending out of the batch, to be written by {@link #write}; the batch is empty after. */
    public Cut cut() {
        Cut cut = new Cut(new ArrayList<>(pending.entrySet()), addedEvents, addedRows, taken);
        taken = new ArrayList<>();
        pending.clear();
        addedEvents = 0;
        addedRows = 0;
        return cut;
    }

    /**
     * Writes a cut; blocks through transient store trouble. Cuts must be written one at a time, in the
     * order they were cut. While the store reports itself unhealthy, one write probes it before the
     * rest follow: a store that is down is not sent the whole batch to time out on, and the job's input
     * waits meanwhile. @return what the store refused for good
     */
    public List<Refused> write(Cut cut) throws InterruptedException {
        List<Refused> refused = new ArrayList<>();
        List<Map.Entry<CacheKey, Pending>> todo = cut.changes();
        long pauseMillis = 100;
        boolean probing = !writer.storeHealth().healthy();
        while (!todo.isEmpty()) {
            int sent = probing ? 1 : todo.size();
            WriteResult[] results = writeAll(todo.subList(0, sent));
            List<Map.Entry<CacheKey, Pending>> again = new ArrayList<>();
            Throwable lastTransient = null;
            for (int i = 0; i < results.length; i++) {
                WriteResult r = results[i];
                if (r.outcome() != WriteOutcome.FAILED) {
                    counted(todo.get(i).getValue(), r.outcome());
                    continue;
                }
                if (r.failure() instanceof InterruptedException) {
                    throw new InterruptedException("cache flush interrupted (job stopping)");
                }
                if (r.failure() instanceof StoreUnavailableException) {
                    again.add(todo.get(i));
                    lastTransient = r.failure();
                } else {
                    countTable(todo.get(i).getValue().table(), "refused");
                    refused.add(new Refused(
                            todo.get(i).getValue(),
                            r.failure() instanceof PartialImageException partial
                                    ? Rejection.of(Rejection.Reason.PARTIAL_IMAGE, partial.getMessage())
                                    : Rejection.of(Rejection.Reason.STORE_REJECTED, String.valueOf(r.failure()))));
                }
            }
            again.addAll(todo.subList(sent, todo.size()));
            todo = again;
            if (lastTransient == null) {
                probing = false; // every write sent went through: the store answers again
            } else {
                // The store is in trouble: hold on to these writes (and so stop pulling input) until it recovers.
                probing = !writer.storeHealth().healthy();
                LOG.warn(
                        "{} cache writes still failing ({}); retrying in {} ms{}, input paused",
                        todo.size(),
                        lastTransient,
                        pauseMillis,
                        probing ? " with one write while the store reports itself unhealthy" : "");
                Thread.sleep(pauseMillis);
                pauseMillis = Math.min(pauseMillis * 2, maxPause.toMillis());
            }
        }
        settled(cut);
        return refused;
    }

    /** A write the store took (applied, or found stale, duplicate or refreshed): its table's count. */
    private void counted(Pending change, WriteOutcome outcome) {
        countTable(change.table(), outcome.name().toLowerCase(Locale.ROOT));
        if (outcome == WriteOutcome.APPLIED && change.refreshTtl()) {
            rowsApplied.inc();
        }
    }

    /** Every change of a written cut is done: counted, and its freshness and watermark moved. */
    private void settled(Cut cut) {
        eventsWritten.inc(cut.events());
        rowsWritten.inc(cut.rows());
        if (freshness != null) {
            freshness.settled(cut.taken());
        }
    }

    private void countTable(String table, String outcome) {
        if (tableWrites != null) {
            tableWrites.inc(table, outcome);
        }
    }

    private WriteResult[] writeAll(List<Map.Entry<CacheKey, Pending>> entries) throws InterruptedException {
        if (retryTimer != null) {
            return writeAllAsync(entries);
        }
        WriteResult[] results = new WriteResult[entries.size()];
        if (pool == null || entries.size() < 2) {
            writeRange(entries, results, 0, entries.size());
            return results;
        }
        int chunk = (entries.size() + threads - 1) / threads;
        List<Future<?>> running = new ArrayList<>();
        for (int from = 0; from < entries.size(); from += chunk) {
            int start = from;
            int end = Math.min(entries.size(), from + chunk);
            running.add(pool.submit(() -> writeRange(entries, results, start, end)));
        }
        for (Future<?> f : running) {
            await(f);
        }
        return results;
    }

    /**
     * Every key's write in flight from this thread, at most {@code maxInFlight} at a time, handed to the
     * writer {@link #KEYS_PER_CALL} keys at a time (a store that orders writes itself sends them in one
     * call); returns when all are done.
     */
    private WriteResult[] writeAllAsync(List<Map.Entry<CacheKey, Pending>> entries) throws InterruptedException {
        WriteResult[] results = new WriteResult[entries.size()];
        Semaphore slots = new Semaphore(maxInFlight);
        CountDownLatch done = new CountDownLatch(entries.size());
        AtomicReference<Throwable> crashed = new AtomicReference<>();
        int perCall = Math.min(KEYS_PER_CALL, maxInFlight);
        for (int from = 0; from < entries.size(); from += perCall) {
            List<Map.Entry<CacheKey, Pending>> call = entries.subList(from, Math.min(entries.size(), from + perCall));
            slots.acquire(call.size());
            List<CompletableFuture<WriteResult>> writes = writer.writeAllAsync(
                    call.stream()
                            .map(e -> new ScnOrderedWriter.Change(
                                    e.getKey(),
                                    e.getValue().record(),
                                    e.getValue().refreshTtl()))
                            .toList(),
                    retryTimer);
            for (int i = 0; i < writes.size(); i++) {
                int k = from + i;
                writes.get(i).whenComplete((result, error) -> {
                    if (error != null) {
                        crashed.compareAndSet(null, error);
                    } else {
                        results[k] = result;
                    }
                    slots.release();
                    done.countDown(); // publishes results[k] to the waiting thread
                });
            }
        }
        done.await();
        if (crashed.get() != null) {
            throw new IllegalStateException("cache write crashed", crashed.get());
        }
        return results;
    }

    private void writeRange(List<Map.Entry<CacheKey, Pending>> entries, WriteResult[] results, int from, int to) {
        for (int i = from; i < to; i++) {
            results[i] = writer.write(
                    entries.get(i).getKey(),
                    entries.get(i).getValue().record(),
                    entries.get(i).getValue().refreshTtl());
        }
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
        if (retryTimer != null) {
            retryTimer.shutdownNow();
        }
    }

    private static void await(Future<?> f) throws InterruptedException {
        try {
            f.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cache write crashed", e.getCause());
        }
    }
}
