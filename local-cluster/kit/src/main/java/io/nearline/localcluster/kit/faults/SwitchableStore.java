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
package io.nearline.localcluster.kit.faults;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreException;
import io.nearline.common.store.StoreUnavailableException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * A store that goes down on demand: while {@code down} says so, every call fails as unavailable,
 * as a cache cluster in trouble would; otherwise calls pass through, except writes of the keys it
 * {@code refuses}, which fail for good (a record the store will never take), and writes of the keys it
 * {@code loses}, acknowledged and dropped (a store losing data silently: what a checker must catch).
 * Local tooling only (the demo, drills and tests of the jobs' outage handling and of the checker):
 * never part of a job artifact.
 */
public final class SwitchableStore implements CacheStore {

    private final CacheStore inner;
    private final BooleanSupplier down;
    private final LongAdder refused;
    private final Predicate<CacheKey> refuses;
    private final Predicate<CacheKey> loses;

    /** @param refused counts refused calls (shared by every store behind the same switch) */
    public SwitchableStore(
            CacheStore inner,
            BooleanSupplier down,
            LongAdder refused,
            Predicate<CacheKey> refuses,
            Predicate<CacheKey> loses) {
        this.inner = inner;
        this.down = down;
        this.refused = refused;
        this.refuses = refuses;
        this.loses = loses;
    }

    private void checkWrite(String op, CacheKey key) {
        check(op);
        if (refuses.test(key)) {
            throw new StoreException("the store refuses '" + key + "' (injected)");
        }
    }

    private void check(String op) {
        if (down.getAsBoolean()) {
            refused.increment();
            throw new StoreUnavailableException("store outage (injected) during " + op);
        }
    }

    @Override
    public Optional<Stored> get(CacheKey key) {
        check("get");
        return inner.get(key);
    }

    @Override
    public KeyPage scanKeys(String prefix, String cursor, int limit) {
        check("scan");
        return inner.scanKeys(prefix, cursor, limit);
    }

    @Override
    public WriteResult insertIfAbsent(CacheKey key, byte[] value, Duration expiry) {
        checkWrite("insert", key);
        return loses.test(key) ? WriteResult.ok(0L) : inner.insertIfAbsent(key, value, expiry);
    }

    @Override
    public WriteResult replaceIfCasMatches(CacheKey key, byte[] value, long expectedCas, Duration expiry) {
        checkWrite("replace", key);
        return loses.test(key) ? WriteResult.ok(0L) : inner.replaceIfCasMatches(key, value, expectedCas, expiry);
    }

    @Override
    public WriteResult upsert(CacheKey key, byte[] value, Duration expiry) {
        checkWrite("upsert", key);
        return loses.test(key) ? WriteResult.ok(0L) : inner.upsert(key, value, expiry);
    }

    @Override
    public Health health() {
        return down.getAsBoolean() ? Health.down("injected outage") : inner.health();
    }

    @Override
    public void close() {
        inner.close();
    }
}
