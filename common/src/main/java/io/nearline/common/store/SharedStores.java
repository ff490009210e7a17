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
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One store instance per identity (a RocksDB path, a Couchbase cluster) per JVM, shared by every
 * task that asks for it and closed when the last one lets go. Engines run several tasks in one JVM,
 * and RocksDB allows one opener per process.
 */
public final class SharedStores {

    private static final Map<String, Entry> OPEN = new HashMap<>();

    private static final class Entry {
        final CacheStore store;
        int users;

        Entry(CacheStore store) {
            this.store = store;
        }
    }

    private SharedStores() {}

    /** The store known as {@code identity}, opened by {@code opener} for its first user. Close the handle when done. */
    public static synchronized CacheStore acquire(String identity, Supplier<CacheStore> opener) {
        Entry entry = OPEN.get(identity);
        if (entry == null) {
            entry = new Entry(opener.get());
            OPEN.put(identity, entry);
        }
        entry.users++;
        return new Handle(identity, entry.store);
    }

    private static synchronized void release(String identity) {
        Entry entry = OPEN.get(identity);
        if (entry != null && --entry.users == 0) {
            OPEN.remove(identity);
            entry.store.close();
        }
    }

    /** A user's view of a shared store: closing it releases this user only. */
    private static final class Handle implements CacheStore {
        private final String identity;
        private final CacheStore store;
        private boolean released;

        Handle(String identity, CacheStore store) {
            this.identity = identity;
            this.store = store;
        }

        @Override
        public Optional<Stored> get(CacheKey key) {
            check();
            return store.get(key);
        }

        @Override
        public KeyPage scanKeys(String prefix, String cursor, int limit) {
            check();
            return store.scanKeys(prefix, cursor, limit);
        }

        @Override
        public WriteResult insertIfAbsent(CacheKey key, byte[] value, Duration expiry) {
            check();
            return store.insertIfAbsent(key, value, expiry);
        }

        @Override
        public WriteResult replaceIfCasMatches(CacheKey key, byte[] value, long expectedCas, Duration expiry) {
            check();
            return store.replaceIfCasMatches(key, value, expectedCas, expiry);
        }

        @Override
        public WriteResult upsert(CacheKey key, byte[] value, Duration expiry) {
            check();
            return store.upsert(key, value, expiry);
        }

        @Override
        public CompletableFuture<WriteResult> upsertAsync(CacheKey key, byte[] value, Duration expiry) {
            check();
            return store.upsertAsync(key, value, expiry);
        }

        @Override
        public WriteResult writeDecided(CacheKey key, Duration expiry, Function<Optional<byte[]>, byte[]> decide) {
            check();
            return store.writeDecided(key, expiry, decide);
        }

        @Override
        public CompletableFuture<WriteResult> writeDecidedAsync(
                CacheKey key, Duration expiry, Function<Optional<byte[]>, byte[]> decide) {
            check();
            return store.writeDecidedAsync(key, expiry, decide);
        }

        @Override
        public boolean isAsync() {
            return store.isAsync();
        }

        @Override
        public Optional<StoreOrderedWrite> orderedWrite() {
            check();
            return store.orderedWrite();
        }

        @Override
        public Health health() {
            return released ? Health.down("released") : store.health();
        }

        @Override
        public synchronized void close() {
            if (!released) {
                released = true;
                release(identity);
            }
        }

        private void check() {
            if (released) {
                throw new StoreException("this handle on store " + identity + " was closed");
            }
        }
    }
}
