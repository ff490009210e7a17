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
import io.nearline.common.version.Version;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The version-ordered write made by the store itself, next to the data (Redis: a function on the
 * server): the stored version is compared with the record's and the record written only if newer, all
 * in one step, so a write costs one round trip and cannot race another writer between read and write.
 * A store offers it through {@link CacheStore#orderedWrite}; the writer uses it where offered and
 * otherwise reads, decides and writes with compare-and-swap.
 *
 * <p>It must order exactly as {@link Version#compareTo} does on the record's header (SCN, then schema
 * version), refuse a stored value it cannot read (failing with
 * {@link io.nearline.common.cache.CorruptCacheRecordException}) rather than overwrite it, and set the
 * expiry on every write.
 */
public interface StoreOrderedWrite {

    /**
     * Writes {@code record} (a cache-record envelope) under {@code key} if the stored version is older
     * or absent; with {@code rewriteEqual}, an equal version is written again too (its expiry restarts).
     * Completes with what happened, or exceptionally as {@link CacheStore}'s operations fail.
     */
    CompletableFuture<Result> writeIfNewer(CacheKey key, byte[] record, boolean rewriteEqual, Duration expiry);

    /**
     * Several keys' writes, each exactly as {@link #writeIfNewer} (one key's outcome never depends on
     * another's): one future per write, in their order. A store that can send them together overrides
     * this (Redis: one function call for a batch of keys instead of one per key).
     */
    default List<CompletableFuture<Result>> writeAllIfNewer(List<Write> writes) {
        return writes.stream()
                .map(w -> writeIfNewer(w.key(), w.record(), w.rewriteEqual(), w.expiry()))
                .toList();
    }

    /** One key's write for {@link #writeAllIfNewer}: the arguments of {@link #writeIfNewer}. */
    record Write(CacheKey key, byte[] record, boolean rewriteEqual, Duration expiry) {}

    enum Outcome {
        /** Written over an older version or where nothing was stored. */
        APPLIED,
        /** An equal version written again ({@code rewriteEqual}). */
        REFRESHED,
        /** An equal version is stored; nothing written. */
        DUPLICATE,
        /** A newer version is stored; nothing written. */
        STALE
    }

    /** What the write did, and the version stored before it ({@link Version#NONE} where absent). */
    record Result(Outcome outcome, Version before) {}
}
