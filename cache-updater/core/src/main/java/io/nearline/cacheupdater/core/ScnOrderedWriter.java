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
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.cache.CorruptCacheRecordException;
import io.nearline.common.events.PartialImages;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreException;
import io.nearline.common.store.StoreOrderedWrite;
import io.nearline.common.store.StoreUnavailableException;
import io.nearline.common.version.Version;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * The one write path into a cache, shared by every writer (cache updater, bootstrapper, read-repair):
 * last-writer-wins by {@link Version}, made safe against concurrent writers by compare-and-swap.
 *
 * <pre>
 * read (value, cas) -> compare versions -> insert-if-absent | replace-if-cas-matches
 *        ^                                        |
 *        +---- conflict or transient error: backoff, retry (bounded) ----+
 * </pre>
 *
 * The read, the comparison and the write are one {@link CacheStore#writeDecided} call: a store that
 * can lock the key does all three under the lock with one read; others read, then write guarded by
 * the CAS token they read, and a conflict comes back here to decide again. A store that compares
 * versions itself ({@link CacheStore#orderedWrite}, Redis) gets the record and does all three in one
 * step on its side.
 *
 * A write never replaces a newer or equal version, so replays, reordering and racing writers all
 * converge on the maximum version per key. A row whose source left some columns out ({@link
 * PartialImages}) is completed from the cached row inside the same decision, or refused with a
 * {@link PartialImageException} where nothing cached can complete it. Deletes are written as tombstones. Every mutation sets
 * the TTL explicitly. Thread-safe; writes to different keys proceed in parallel.
 *
 * <p>Metrics: {@code write.applied}, {@code write.stale}, {@code write.duplicate}, {@code write.refreshed}, {@code write.failed},
 * {@code write.retries.conflict}, {@code write.retries.unavailable}.
 */
public final class ScnOrderedWriter {

    private final CacheStore store;
    private final StoreOrderedWrite storeOrdered; // null: decide here, write with compare-and-swap
    private final WriterSettings settings;
    private final Clock clock;
    private final Sleeper sleeper;
    private final RandomGenerator random;

    private final Metrics.Counter applied;
    private final Metrics.Counter stale;
    private final Metrics.Counter duplicate;
    private final Metrics.Counter refreshed;
    private final Metrics.Counter failed;
    private final Metrics.Counter conflictRetries;
    private final Metrics.Counter unavailableRetries;

    public ScnOrderedWriter(CacheStore store, WriterSettings settings, Metrics metrics) {
        this(store, settings, metrics, Clock.systemUTC(), Sleeper.REAL, null);
    }

    /** @param random jitter source; null uses the calling thread's {@link ThreadLocalRandom} */
    public ScnOrderedWriter(
            CacheStore store,
            WriterSettings settings,
            Metrics metrics,
            Clock clock,
            Sleeper sleeper,
            RandomGenerator random) {
        this.store = store;
        this.storeOrdered = store.orderedWrite().orElse(null);
        this.settings = settings;
        this.clock = clock;
        this.sleeper = sleeper;
        this.random = random;
        this.applied = metrics.counter("write.applied");
        this.stale = metrics.counter("write.stale");
        this.duplicate = metrics.counter("write.duplicate");
        this.refreshed = metrics.counter("write.refreshed");
        this.failed = metrics.counter("write.failed");
        this.conflictRetries = metrics.counter("write.retries.conflict");
        this.unavailableRetries = metrics.counter("write.retries.unavailable");
    }

    /**
     * The same ordered write into the same store with every record kept {@code ttl}, counting nothing into
     * the job's write counters: for the job's own bookkeeping beside the data (published consistent-through).
     */
    ScnOrderedWriter withTtl(Duration ttl) {
        return new ScnOrderedWriter(
                store,
                new WriterSettings(ttl, settings.maxAttempts(), settings.backoff(), java.util.Map.of()),
                Metrics.NONE,
                clock,
                sleeper,
                random);
    }

    /** Whether the store writes asynchronously: then {@link #writeAsync} keeps many writes in flight from one thread. */
    public boolean isAsync() {
        return store.isAsync();
    }

    /** The store's own judgement of whether it can take traffic (Couchbase: its transient error rate). */
    public CacheStore.Health storeHealth() {
        return store.health();
    }

    /** Writes {@code record} under {@code key} unless the cache already holds an equal or newer version. */
    public WriteResult write(CacheKey key, CacheRecord record) {
        return write(key, record, false);
    }

    /**
     * As {@link #write(CacheKey, CacheRecord)}; with {@code refreshTtl}, an equal version is rewritten
     * (compare-and-swap, same bytes but the write time) so that its TTL starts again: what a periodic
     * bootstrap does for rows that did not change, so they never expire while they exist. Blocks: the
     * write of {@link #writeAsync}, waited for, with its retries waited out on the calling thread.
     */
    public WriteResult write(CacheKey key, CacheRecord record, boolean refreshTtl) {
        OnCallingThread retries = new OnCallingThread();
        CompletableFuture<WriteResult> done = new CompletableFuture<>();
        attempt(new Decision(key, record, refreshTtl), 1, retries, done);
        return retries.runUntil(done);
    }

    /**
     * As {@link #write(CacheKey, CacheRecord, boolean)}, without blocking: for a store whose
     * {@link CacheStore#isAsync} is true, so that one thread keeps many keys' writes in flight. Retries
     * wait on {@code timer}. The future completes with the result (never exceptionally for the store's
     * own failures: those are results, as in the blocking write).
     */
    public CompletableFuture<WriteResult> writeAsync(
            CacheKey key, CacheRecord record, boolean refreshTtl, ScheduledExecutorService timer) {
        return writeAllAsync(List.of(new Change(key, record, refreshTtl)), timer)
                .get(0);
    }

    /**
     * As {@link #writeAsync} for each of {@code changes}, one future per change in their order; the first
     * tries of the keys the store orders itself go to it together ({@link StoreOrderedWrite#writeAllIfNewer}),
     * the rest and every retry one by one.
     */
    public List<CompletableFuture<WriteResult>> writeAllAsync(List<Change> changes, ScheduledExecutorService timer) {
        Retries retries = (delay, next, interrupted) -> timer.schedule(next, delay.toNanos(), TimeUnit.NANOSECONDS);
        List<CompletableFuture<WriteResult>> done = new ArrayList<>(changes.size());
        List<Decision> together = new ArrayList<>();
        List<CompletableFuture<WriteResult>> togetherDone = new ArrayList<>();
        for (Change change : changes) {
            Decision decision = new Decision(change.key(), change.record(), change.refreshTtl());
            CompletableFuture<WriteResult> one = new CompletableFuture<>();
            done.add(one);
            if (storeOrdered == null || decision.readsHeld()) {
                attempt(decision, 1, retries, one);
            } else {
                together.add(decision);
                togetherDone.add(one);
            }
        }
        if (!together.isEmpty()) {
            List<CompletableFuture<StoreOrderedWrite.Result>> tried = storeOrdered.writeAllIfNewer(together.stream()
                    .map(d -> new StoreOrderedWrite.Write(d.key, d.encoded(), d.refreshTtl, settings.ttlOf(d.key)))
                    .toList());
            for (int i = 0; i < together.size(); i++) {
                Decision decision = together.get(i);
                settle(decision, 1, tried.get(i).thenApply(decision::decidedByStore), retries, togetherDone.get(i));
            }
        }
        return done;
    }

    /** One key's change for {@link #writeAllAsync}: the arguments of {@link #writeAsync}. */
    public record Change(CacheKey key, CacheRecord record, boolean refreshTtl) {}

    /** Where a write waits before its next attempt. */
    private interface Retries {
        /** Runs {@code next} after {@code delay}, or {@code interrupted} if the wait is interrupted. */
        void after(Duration delay, Runnable next, Runnable interrupted);
    }

    /**
     * The retries of a blocking write, run on the thread that waits for it: whichever thread finishes an
     * attempt (a networked store's I/O thread) only hands the next one over, and never sleeps.
     */
    private final class OnCallingThread implements Retries {
        private static final Runnable DONE = () -> {};
        private final BlockingQueue<Runnable> due = new LinkedBlockingQueue<>();

        @Override
        public void after(Duration delay, Runnable next, Runnable interrupted) {
            due.add(() -> {
                if (pause(delay)) {
                    next.run();
                } else {
                    interrupted.run();
                }
            });
        }

        /** Runs the retries until {@code done}; an interrupt is kept for the next pause, which ends the write. */
        WriteResult runUntil(CompletableFuture<WriteResult> done) {
            done.whenComplete((result, error) -> due.add(DONE));
            boolean interrupted = false;
            try {
                while (true) {
                    Runnable next;
                    try {
                        next = due.take();
                    } catch (InterruptedException e) {
                        interrupted = true;
                        continue;
                    }
                    if (next == DONE) {
                        break;
                    }
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                        interrupted = false;
                    }
                    next.run();
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            try {
                return done.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e; // not the store's: a bug
            }
        }
    }

    /** Attempt number {@code attempt} of a write: {@code done} completes with what it came to, or it is tried again. */
    private void attempt(Decision decision, int attempt, Retries retries, CompletableFuture<WriteResult> done) {
        CompletableFuture<CacheStore.WriteResult> tried;
        try {
            tried = tryOnce(decision);
        } catch (RuntimeException e) {
            tried = CompletableFuture.failedFuture(e);
        }
        settle(decision, attempt, tried, retries, done);
    }

    /** Completes {@code done} with what attempt {@code attempt} came to, or has {@code retries} try again. */
    private void settle(
            Decision decision,
            int attempt,
            CompletableFuture<CacheStore.WriteResult> tried,
            Retries retries,
            CompletableFuture<WriteResult> done) {
        tried.whenComplete((result, error) -> {
            try {
                Throwable cause =
                        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                if (cause != null
                        && !(cause instanceof StoreException || cause instanceof CorruptCacheRecordException)) {
                    done.completeExceptionally(cause); // not the store's: a bug, never retried
                    return;
                }
                WriteResult settled = outcome(decision, attempt, result, (RuntimeException) cause);
                if (settled != null) {
                    done.complete(settled);
                } else if (attempt >= settings.maxAttempts()) {
                    done.complete(fail(attempt, decision.lastFailure));
                } else {
                    retries.after(
                            settings.backoff().delay(attempt - 1, jitter()),
                            () -> attempt(decision, attempt + 1, retries, done),
                            () -> done.complete(fail(
                                    attempt,
                                    new InterruptedException(
                                            "interrupted while retrying a write of '" + decision.key + "'"))));
                }
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
    }

    /** One try at the write: the store's result, or null where nothing was to be written (the decision says why). */
    private CompletableFuture<CacheStore.WriteResult> tryOnce(Decision decision) {
        // a partial row is completed from the cached one here, and a delete without a version is versioned
        // above it, so both take the read-decide-CAS path
        if (storeOrdered == null || decision.readsHeld()) {
            return store.writeDecidedAsync(decision.key, settings.ttlOf(decision.key), decision::decide);
        }
        return storeOrdered
                .writeIfNewer(decision.key, decision.encoded(), decision.refreshTtl, settings.ttlOf(decision.key))
                .thenApply(decision::decidedByStore);
    }

    /**
     * What one attempt came to: the write's result, or null to try again (the reason kept in the
     * decision). {@code failure} is what the store threw instead of a result.
     */
    private WriteResult outcome(
            Decision decision, int attempt, CacheStore.WriteResult result, RuntimeException failure) {
        if (failure instanceof StoreUnavailableException) {
            unavailableRetries.inc();
            decision.lastFailure = failure;
            return null;
        }
        if (failure instanceof CorruptCacheRecordException) {
            // Never overwrite bytes we cannot read: a newer writer may own them. Needs a person.
            return fail(
                    attempt,
                    new StoreException(
                            "stored record for '" + decision.key + "' is unreadable: " + failure.getMessage(),
                            failure));
        }
        if (failure != null) {
            return fail(attempt, failure);
        }
        if (result == null) {
            (decision.order < 0 ? stale : duplicate).inc();
            return new WriteResult(
                    decision.order < 0 ? WriteOutcome.STALE : WriteOutcome.DUPLICATE, decision.stored, attempt, null);
        }
        if (result.ok() && decision.order == 0) {
            refreshed.inc();
            return new WriteResult(WriteOutcome.REFRESHED, decision.record.version(), attempt, null);
        }
        if (result.ok()) {
            applied.inc();
            return new WriteResult(WriteOutcome.APPLIED, decision.record.version(), attempt, null);
        }
        // EXISTS, CAS_MISMATCH or NOT_FOUND: another writer got in between; re-read and decide again.
        conflictRetries.inc();
        // Contention is transient by nature: if it outlasts the budget, callers retry later.
        decision.lastFailure = new StoreUnavailableException("write of '" + decision.key + "' still contended after "
                + attempt + " attempts (last: " + result.status() + ")");
        return null;
    }

    /**
     * The comparison at the heart of the write, made on what the store holds when it is asked (under
     * the key's lock where the store has one): null (write nothing) for an older or equal version,
     * else the record's bytes, encoded once per write.
     */
    private final class Decision {
        private final CacheKey key;
        private final CacheRecord record;
        private final boolean refreshTtl;
        /** A row with uncaptured columns ({@link PartialImages}): completed from the cached row when written. */
        private final boolean partial;

        private byte[] encoded;
        Version stored = Version.NONE;
        int order; // incoming against stored: < 0 stale, 0 equal, > 0 newer or absent
        Throwable lastFailure; // why the last attempt is tried again

        Decision(CacheKey key, CacheRecord record, boolean refreshTtl) {
            this.key = key;
            this.record = record;
            this.refreshTtl = refreshTtl;
            this.partial = !record.tombstone() && PartialImages.isPartial(record.payload());
        }

        /** Whether the write must see the cached row itself, not only its version. */
        boolean readsHeld() {
            return partial;
        }

        byte[] decide(Optional<byte[]> current) {
            if (current.isEmpty()) {
                stored = Version.NONE;
                order = 1;
            } else {
                stored = CacheRecordCodec.decodeVersion(current.get());
                order = record.version().compareTo(stored);
                if (order < 0 || (order == 0 && !refreshTtl)) {
                    return null;
                }
            }
            return partial ? completed(current) : encoded();
        }

        /** The partial row completed from the cached one, encoded; a PartialImageException where it cannot be. */
        private byte[] completed(Optional<byte[]> current) {
            CacheRecord held = current.map(CacheRecordCodec::decode).orElse(null);
            if (held == null || held.tombstone()) {
                throw new PartialImageException("'" + key + "' has columns its source did not capture and the cache "
                        + (held == null ? "holds nothing" : "holds a delete") + " to complete them from");
            }
            byte[] filled = PartialImages.completedFrom(record.payload(), held.payload());
            if (filled == null) {
                throw new PartialImageException("'" + key + "' has columns its source did not capture that the "
                        + "cached row (" + held.version() + ") does not have either");
            }
            return CacheRecordCodec.encode(
                    new CacheRecord(record.version(), false, record.sourcePartition(), clock.millis(), filled));
        }

        byte[] encoded() {
            if (encoded == null) {
                encoded = CacheRecordCodec.encode(record.withWriteTime(clock.millis()));
            }
            return encoded;
        }

        /** The store compared and wrote (or did not): the same result as {@link #decide} would have led to. */
        CacheStore.WriteResult decidedByStore(StoreOrderedWrite.Result result) {
            stored = result.before();
            order = switch (result.outcome()) {
                case APPLIED -> 1;
                case REFRESHED, DUPLICATE -> 0;
                case STALE -> -1;
            };
            boolean written = result.outcome() == StoreOrderedWrite.Outcome.APPLIED
                    || result.outcome() == StoreOrderedWrite.Outcome.REFRESHED;
            return written ? CacheStore.WriteResult.ok(0L) : null;
        }
    }

    private RandomGenerator jitter() {
        return random != null ? random : ThreadLocalRandom.current();
    }

    private boolean pause(Duration delay) {
        try {
            sleeper.sleep(delay);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private WriteResult fail(int attempts, Throwable cause) {
        failed.inc();
        return new WriteResult(WriteOutcome.FAILED, Version.NONE, attempts, cause);
    }
}
