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
package io.nearline.localcluster.kit.baselines;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.config.Config;
import io.nearline.common.store.CacheStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * The write a plain sink makes, for the benches' {@code --against blind}: with {@code bench.blind-writes=true}
 * every store a job opens in this JVM takes its ordered writes as blind upserts: no read, no version
 * compare, no compare-and-swap (the job's decision is made as if the key were absent, and its record
 * written over whatever is there). Everything around the write (Kafka, decode, batching, the engine) stays
 * the job's own, so the two runs differ only in the write. Local tooling only: the local tools put it
 * around the store they give a job ({@code LocalStores}); no job
 * artifact has it, and it is not a {@code cache.store} value.
 */
public final class BlindWrites {

    /** The setting that asks for blind writes; a key outside Nearline's namespaces, so jobs pass it through. */
    public static final String SETTING = "bench.blind-writes";

    private static final LongAdder UPSERTS = new LongAdder();

    private BlindWrites() {}

    /** Blind upserts made in this JVM so far: the evidence that a run wrote blind. */
    public static long upserts() {
        return UPSERTS.sum();
    }

    /** Whether {@code config} asks for blind writes. */
    public static boolean asked(Config config) {
        return Boolean.parseBoolean(config.raw(SETTING).orElse("false"));
    }

    /** {@code store} with its guarded writes made blind. */
    public static CacheStore around(CacheStore store) {
        return new Blind(store);
    }

    /** The store with its guarded writes made blind; reads and everything else pass through. */
    static final class Blind implements CacheStore {
        private final CacheStore inner;

        Blind(CacheStore inner) {
            this.inner = inner;
        }

        @Override
        public Optional<Stored> get(CacheKey key) {
            return inner.get(key);
        }

        @Override
        public KeyPage scanKeys(String prefix, String cursor, int limit) {
            return inner.scanKeys(prefix, cursor, limit);
        }

        @Override
        public WriteResult insertIfAbsent(CacheKey key, byte[] value, Duration expiry) {
            return upsert(key, value, expiry);
        }

        @Override
        public WriteResult replaceIfCasMatches(CacheKey key, byte[] value, long expectedCas, Duration expiry) {
            return upsert(key, value, expiry);
        }

        @Override
        public WriteResult upsert(CacheKey key, byte[] value, Duration expiry) {
            UPSERTS.increment();
            return inner.upsert(key, value, expiry);
        }

        @Override
        public CompletableFuture<WriteResult> upsertAsync(CacheKey key, byte[] value, Duration expiry) {
            UPSERTS.increment();
            return inner.upsertAsync(key, value, expiry);
        }

        @Override
        public WriteResult writeDecided(CacheKey key, Duration expiry, Function<Optional<byte[]>, byte[]> decide) {
            byte[] value = decide.apply(Optional.empty());
            return value == null ? null : upsert(key, value, expiry);
        }

        @Override
        public CompletableFuture<WriteResult> writeDecidedAsync(
                CacheKey key, Duration expiry, Function<Optional<byte[]>, byte[]> decide) {
            byte[] value;
            try {
                value = decide.apply(Optional.empty());
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
            return value == null ? CompletableFuture.completedFuture(null) : upsertAsync(key, value, expiry);
        }

        @Override
        public boolean isAsync() {
            return inner.isAsync();
        }

        @Override
        public Health health() {
            return inner.health();
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
