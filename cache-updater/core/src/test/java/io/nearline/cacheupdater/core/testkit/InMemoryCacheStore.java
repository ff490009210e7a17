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
package io.nearline.cacheupdater.core.testkit;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** A complete {@link CacheStore} in memory (CAS, expiry on a given clock): the fast store for unit tests. */
public final class InMemoryCacheStore implements CacheStore {

    private record Entry(byte[] value, long cas, long expiresAtMillis) {}

    private final Map<CacheKey, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong casSequence = new AtomicLong();
    private final Clock clock;
    private volatile boolean closed;

    public InMemoryCacheStore(Clock clock) {
        this.clock = clock;
    }

    public InMemoryCacheStore() {
        this(Clock.systemUTC());
    }

    /** In key order; the cursor is the last key listed. */
    @Override
    public KeyPage scanKeys(String prefix, String cursor, int limit) {
        open();
        List<CacheKey> keys = new java.util.ArrayList<>();
        for (CacheKey k : new TreeMap<>(entries).keySet()) {
            if (k.value().startsWith(prefix) && (cursor == null || k.value().compareTo(cursor) > 0)) {
                keys.add(k);
                if (keys.size() == limit) {
                    return new KeyPage(keys, k.value());
                }
            }
        }
        return new KeyPage(keys, null);
    }

    @Override
    public Optional<Stored> get(CacheKey key) {
        open();
        Entry e = live(entries.get(key));
        return e == null ? Optional.empty() : Optional.of(new Stored(e.value.clone(), e.cas));
    }

    @Override
    public WriteResult insertIfAbsent(CacheKey key, byte[] value, Duration expiry) {
        open();
        Entry fresh = entry(value, expiry);
        Entry[] before = new Entry[1];
        entries.compute(key, (k, old) -> {
            before[0] = live(old);
            return before[0] == null ? fresh : old;
        });
        return before[0] == null ? WriteResult.ok(fresh.cas) : WriteResult.of(Status.EXISTS);
    }

    @Override
    public WriteResult replaceIfCasMatches(CacheKey key, byte[] value, long expectedCas, Duration expiry) {
        open();
        Entry fresh = entry(value, expiry);
        Status[] status = new Status[1];
        entries.compute(key, (k, old) -> {
            Entry current = live(old);
            if (current == null) {
                status[0] = Status.NOT_FOUND;
                return old;
            }
            if (current.cas != expectedCas) {
                status[0] = Status.CAS_MISMATCH;
                return old;
            }
            status[0] = Status.OK;
            return fresh;
        });
        return status[0] == Status.OK ? WriteResult.ok(fresh.cas) : WriteResult.of(status[0]);
    }

    @Override
    public WriteResult upsert(CacheKey key, byte[] value, Duration expiry) {
        open();
        Entry fresh = entry(value, expiry);
        entries.put(key, fresh);
        return WriteResult.ok(fresh.cas);
    }

    @Override
    public Health health() {
        return closed ? Health.down("closed") : Health.up();
    }

    @Override
    public void close() {
        closed = true;
    }

    /** Live (unexpired) keys, for assertions. */
    public Map<CacheKey, byte[]> contents() {
        Map<CacheKey, byte[]> out = new TreeMap<>();
        entries.forEach((k, e) -> {
            if (live(e) != null) {
                out.put(k, e.value);
            }
        });
        return out;
    }

    private Entry entry(byte[] value, Duration expiry) {
        CacheStore.requireFiniteExpiry(expiry);
        return new Entry(value.clone(), casSequence.incrementAndGet(), clock.millis() + expiry.toMillis());
    }

    private Entry live(Entry e) {
        return e != null && e.expiresAtMillis > clock.millis() ? e : null;
    }

    private void open() {
        if (closed) {
            throw new StoreException("store is closed");
        }
    }
}
