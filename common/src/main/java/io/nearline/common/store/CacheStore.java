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
package io.nearline.common.store;

import io.nearline.common.cache.CacheKey;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The port every cache store implements: a key-value store with compare-and-swap and a finite
 * expiry on every write. Values are opaque bytes (the cache-record envelope); ordering by version is
 * not the store's job but the SCN-ordered write's, built on these primitives.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>Every mutation takes an explicit expiry, strictly positive; the stored record expires that
 *       long after the mutation (the previous expiry is never kept). An expired record is absent to
 *       every operation and is eventually purged.</li>
 *   <li>A CAS token identifies one stored state of a key: any later mutation of the key changes it.</li>
 *   <li>Conflicts are results, not exceptions: {@link Status#EXISTS}, {@link Status#CAS_MISMATCH},
 *       {@link Status#NOT_FOUND}.</li>
 *   <li>{@link StoreUnavailableException} means "transient, retry with backoff" — including an
 *       ambiguous outcome (a timeout after the request was sent: the write may or may not have
 *       happened). {@link StoreException} means retrying will not help.</li>
 *   <li>Implementations are thread-safe. {@link #close()} is idempotent; operations after it throw
 *       {@link StoreException}.</li>
 * </ul>
 */
public interface CacheStore extends AutoCloseable {

    /** The current value and its CAS token, or empty when absent or expired. */
    Optional<Stored> get(CacheKey key);

    /** Stores {@code value} only if the key is absent (or expired): {@link Status#OK} or {@link Status#EXISTS}. */
    WriteResult insertIfAbsent(CacheKey key, byte[] value, Duration expiry);

    /**
     * Replaces the value only if its CAS token still equals {@code expectedCas}:
     * {@link Status#OK}, {@link Status#CAS_MISMATCH}, or {@link Status#NOT_FOUND} if it vanished.
     */
    WriteResult replaceIfCasMatches(CacheKey key, byte[] value, long expectedCas, Duration expiry);

    /**
     * Unconditional write. Job writers never use it (it is exactly the blind write that regresses a
     * cache under replays and racing writers); it exists for baselines, tools and test fixtures.
     */
    WriteResult upsert(CacheKey key, byte[] value, Duration expiry);

    /**
     * {@link #upsert} without waiting, for baselines that keep many blind writes in flight (a
     * benchmark's blind ceiling). The default runs it on the calling thread; a networked store
     * overrides it.
     */
    default CompletableFuture<WriteResult> upsertAsync(CacheKey key, byte[] value, Duration expiry) {
        try {
            return CompletableFuture.completedFuture(upsert(key, value, expiry));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Reads the key and writes what {@code decide} makes of its current value (empty when absent or
     * expired), with no other writer of this store in between; when {@code decide} returns null
     * nothing is written and this returns null. The default reads, then writes guarded by what it
     * read ({@link #insertIfAbsent}, {@link #replaceIfCasMatches}): if another writer got in between,
     * nothing is written and the status says so, and the caller decides again. A store that can hold
     * the key's lock across the read and the write (the embedded one) overrides it and reads once.
     * {@code decide} may be called again for the same write, and runs under that lock: keep it short.
     */
    default WriteResult writeDecided(CacheKey key, Duration expiry, Function<Optional<byte[]>, byte[]> decide) {
        Optional<Stored> current = get(key);
        byte[] value = decide.apply(current.map(Stored::value));
        if (value == null) {
            return null;
        }
        return current.isEmpty()
                ? insertIfAbsent(key, value, expiry)
                : replaceIfCasMatches(key, value, current.get().cas(), expiry);
    }

    /**
     * {@link #writeDecided} without waiting: the future completes with its result, or exceptionally
     * with what it would have thrown. The default runs it on the calling thread; a networked store
     * overrides it (and {@link #isAsync}) so that one thread keeps many writes in flight.
     */
    default CompletableFuture<WriteResult> writeDecidedAsync(
            CacheKey key, Duration expiry, Function<Optional<byte[]>, byte[]> decide) {
        try {
            return CompletableFuture.completedFuture(writeDecided(key, expiry, decide));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Whether {@link #writeDecidedAsync} returns before the write is done (writers then skip their threads). */
    default boolean isAsync() {
        return false;
    }

    /**
     * The version-ordered write done by the store itself in one step, where the store can (Redis);
     * empty where the writer must read, decide and write with compare-and-swap.
     */
    default Optional<StoreOrderedWrite> orderedWrite() {
        return Optional.empty();
    }

    /**
     * A page of the keys that start with {@code prefix}, of about {@code limit} keys (a page may be
     * shorter, even empty, before the end), from {@code cursor} ({@code null}: the first page). Every
     * key present for the whole scan is listed at least once; an expired key may be listed (its get
     * says it is absent). For sweeps that bound their load on the store by pages.
     *
     * @throws UnsupportedOperationException where the store cannot list its keys, with the reason
     */
    default KeyPage scanKeys(String prefix, String cursor, int limit) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot list its keys");
    }

    /** Keys of one {@link #scanKeys} page, and the cursor of the next ({@code null}: the scan is done). */
    record KeyPage(List<CacheKey> keys, String next) {}

    /** Whether the store can take traffic now; jobs stop pulling input while it cannot. */
    Health health();

    @Override
    void close();

    /** A stored value and the CAS token of that state. */
    record Stored(byte[] value, long cas) {}

    /** Outcome of a mutation; {@code cas} is the new token when {@code status == OK}, else 0. */
    record WriteResult(Status status, long cas) {
        public static WriteResult ok(long cas) {
            return new WriteResult(Status.OK, cas);
        }

        public static WriteResult of(Status status) {
            return new WriteResult(status, 0L);
        }

        public boolean ok() {
            return status == Status.OK;
        }
    }

    enum Status {
        OK,
        /** insertIfAbsent: the key is present. */
        EXISTS,
        /** replaceIfCasMatches: the key was changed by someone else. */
        CAS_MISMATCH,
        /** replaceIfCasMatches: the key is absent (removed or expired). */
        NOT_FOUND
    }

    /** Health as the store sees it, with a reason a person can act on. */
    record Health(boolean healthy, String detail) {
        public static Health up() {
            return new Health(true, "ok");
        }

        public static Health down(String detail) {
            return new Health(false, detail);
        }
    }

    /** Checks an expiry argument; every store calls it so that no record is ever written without a TTL. */
    static Duration requireFiniteExpiry(Duration expiry) {
        if (expiry == null || expiry.isZero() || expiry.isNegative()) {
            throw new IllegalArgumentException("every cache write needs a positive expiry, got " + expiry);
        }
        return expiry;
    }
}
