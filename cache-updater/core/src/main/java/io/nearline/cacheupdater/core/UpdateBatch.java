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
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
 * <p>Different keys are written side by side as suits the store ({@link ParallelWrites}).
 *
 * <p>{@link #cut} and {@link #write} split a flush in two for an engine that writes on another thread
 * while the next batch fills (Samza's asynchronous task): cut under the caller's lock, write the cuts
 * one at a time in the order they were cut, so each key's writes stay in order.
 *
 * <p>Failures ({@link RetryingFlush}): a transient one is retried with growing pauses until it succeeds;
 * the flush blocks meanwhile, so the job stops pulling input instead of dropping it. A permanent one (the
 * store refuses the write for good) is returned for dead-lettering.
 * Not thread-safe: one batch per task (adds and cuts on one thread or under one lock, cuts written one
 * at a time). Close it to stop its write threads.
 */
public final class UpdateBatch implements AutoCloseable {

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

        /**
         * This change in a batch in place of the older one: a row with uncaptured columns takes them from
         * it, since the older row never reaches the store to complete this one from there.
         */
        Pending over(Pending older) {
            if (record.tombstone() || older.record.tombstone() || !PartialImages.isPartial(record.payload())) {
                return this;
            }
            byte[] filled = PartialImages.filledFrom(record.payload(), older.record.payload());
            return filled == null
                    ? this
                    : new Pending(
                            table,
                            commitTimeMillis,
                            new CacheRecord(
                                    record.version(),
                                    false,
                                    record.sourcePartition(),
                                    record.writeTimeMillis(),
                                    filled),
                            source,
                            refreshTtl);
        }
    }

    /** A change the store refused for good. */
    public record Refused(Pending change, Rejection rejection) {}

    /** The changes taken out of the batch by {@link #cut}, to be written by {@link #write}. */
    public record Cut(
            List<Map.Entry<CacheKey, Pending>> changes, long events, long rows, List<WriteFreshness.Taken> taken) {}

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

    private final Map<CacheKey, Pending> pending = new LinkedHashMap<>();
    private final ScnOrderedWriter writer;
    private final ParallelWrites writes;
    private final RetryingFlush flush;
    private ThroughPublisher publisher;

    /** Default of {@code write.max-in-flight}. */
    public static final int MAX_IN_FLIGHT = 256;

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
        this.superseded = metrics.counter("write.superseded");
        this.eventsWritten = metrics.counter(WRITTEN);
        this.rowsWritten = metrics.counter(BOOTSTRAP_WRITTEN);
        this.rowsApplied = metrics.counter(BOOTSTRAP_APPLIED);
        this.freshness = measureFreshness ? new WriteFreshness(metrics, System::currentTimeMillis) : null;
        this.tableWrites = measureFreshness ? new CounterFamily(metrics, "table.writes", "table", "outcome") : null;
        this.writer = writer;
        this.writes = new ParallelWrites(writer, writeThreads, maxInFlight);
        this.flush = new RetryingFlush(writer, writes, maxPause);
    }

    /**
     * Publishes each (table, partition)'s consistent-through in the store under {@code keyPrefix}, at most
     * once per {@code every} ({@link ThroughPublisher}); needs the freshness measures, which track it.
     */
    public UpdateBatch publishingThrough(String keyPrefix, Duration every, Metrics metrics) {
        if (freshness == null) {
            throw new IllegalStateException("publishing consistent-through needs write.freshness-metrics=true");
        }
        ScnOrderedWriter entries = writer.withTtl(ThroughPublisher.entryTtl(every));
        this.publisher = new ThroughPublisher(entries, keyPrefix, every, metrics, System::currentTimeMillis);
        return this;
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
                        change.commitTimeMillis(),
                        change.record().version()));
            }
        }
        Pending before = pending.get(key);
        if (before == null
                || change.record().version().isNewerThan(before.record().version())) {
            pending.put(key, before == null ? change : change.over(before));
        }
        if (before != null) {
            superseded.inc();
            countTable(change.table(), "superseded");
        }
    }

    public int size() {
        return pending.size();
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
     * Writes a cut ({@link RetryingFlush}); blocks through transient store trouble. Cuts must be
     * written one at a time, in the order they were cut. @return what the store refused for good
     */
    public List<Refused> write(Cut cut) throws InterruptedException {
        List<Refused> refused = new ArrayList<>();
        flush.write(cut.changes(), new RetryingFlush.Outcomes() {
            @Override
            public void taken(Pending change, WriteOutcome outcome) {
                counted(change, outcome);
            }

            @Override
            public void refused(Pending change, Rejection rejection) {
                countTable(change.table(), "refused");
                refused.add(new Refused(change, rejection));
            }
        });
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
        if (publisher != null) {
            publisher.maybePublish(freshness);
        }
    }

    private void countTable(String table, String outcome) {
        if (tableWrites != null) {
            tableWrites.inc(table, outcome);
        }
    }

    @Override
    public void close() {
        writes.close();
    }
}
