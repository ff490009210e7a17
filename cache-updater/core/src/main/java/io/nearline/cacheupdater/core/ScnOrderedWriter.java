package io.nearline.cacheupdater.core;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.cache.CorruptCacheRecordException;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreException;
import io.nearline.common.store.StoreUnavailableException;
import io.nearline.common.version.Version;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
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
 * A write never replaces a newer or equal version, so replays, reordering and racing writers all
 * converge on the maximum version per key. Deletes are written as tombstones. Every mutation sets
 * the TTL explicitly. Thread-safe; writes to different keys proceed in parallel.
 *
 * <p>Metrics: {@code write.applied}, {@code write.stale}, {@code write.duplicate}, {@code write.refreshed}, {@code write.failed},
 * {@code write.retries.conflict}, {@code write.retries.unavailable}.
 */
public final class ScnOrderedWriter {

    private final CacheStore store;
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

    /** Writes {@code record} under {@code key} unless the cache already holds an equal or newer version. */
    public WriteResult write(CacheKey key, CacheRecord record) {
        return write(key, record, false);
    }

    /**
     * As {@link #write(CacheKey, CacheRecord)}; with {@code refreshTtl}, an equal version is rewritten
     * (compare-and-swap, same bytes but the write time) so that its TTL starts again: what a periodic
     * bootstrap does for rows that did not change, so they never expire while they exist.
     */
    public WriteResult write(CacheKey key, CacheRecord record, boolean refreshTtl) {
        Version incoming = record.version();
        byte[] encoded = null;
        Throwable lastFailure = null;
        for (int attempt = 1; attempt <= settings.maxAttempts(); attempt++) {
            try {
                Optional<CacheStore.Stored> current = store.get(key);
                CacheStore.WriteResult result;
                if (current.isEmpty()) {
                    encoded = encoded != null ? encoded : encode(record);
                    result = store.insertIfAbsent(key, encoded, settings.ttl());
                } else {
                    Version stored =
                            CacheRecordCodec.decodeVersion(current.get().value());
                    int order = incoming.compareTo(stored);
                    if (order < 0) {
                        stale.inc();
                        return new WriteResult(WriteOutcome.STALE, stored, attempt, null);
                    }
                    if (order == 0 && !refreshTtl) {
                        duplicate.inc();
                        return new WriteResult(WriteOutcome.DUPLICATE, stored, attempt, null);
                    }
                    encoded = encoded != null ? encoded : encode(record);
                    result = store.replaceIfCasMatches(
                            key, encoded, current.get().cas(), settings.ttl());
                    if (result.ok() && order == 0) {
                        refreshed.inc();
                        return new WriteResult(WriteOutcome.REFRESHED, incoming, attempt, null);
                    }
                }
                if (result.ok()) {
                    applied.inc();
                    return new WriteResult(WriteOutcome.APPLIED, incoming, attempt, null);
                }
                // EXISTS, CAS_MISMATCH or NOT_FOUND: another writer got in between; re-read and decide again.
                conflictRetries.inc();
                // Contention is transient by nature: if it outlasts the budget, callers retry later.
                lastFailure = new StoreUnavailableException("write of '" + key + "' still contended after " + attempt
                        + " attempts (last: " + result.status() + ")");
            } catch (StoreUnavailableException e) {
                unavailableRetries.inc();
                lastFailure = e;
            } catch (CorruptCacheRecordException e) {
                // Never overwrite bytes we cannot read: a newer writer may own them. Needs a person.
                return fail(
                        attempt,
                        new StoreException("stored record for '" + key + "' is unreadable: " + e.getMessage(), e));
            } catch (StoreException e) {
                return fail(attempt, e);
            }
            if (attempt < settings.maxAttempts() && !pause(attempt)) {
                return fail(attempt, new InterruptedException("interrupted while retrying a write of '" + key + "'"));
            }
        }
        return fail(settings.maxAttempts(), lastFailure);
    }

    private byte[] encode(CacheRecord record) {
        return CacheRecordCodec.encode(record.withWriteTime(clock.millis()));
    }

    private boolean pause(int attempt) {
        RandomGenerator jitter = random != null ? random : ThreadLocalRandom.current();
        try {
            sleeper.sleep(settings.backoff().delay(attempt - 1, jitter));
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
