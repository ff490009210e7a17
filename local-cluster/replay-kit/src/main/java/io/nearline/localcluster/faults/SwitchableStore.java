package io.nearline.localcluster.faults;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreUnavailableException;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * A store that goes down on demand: while {@code down} says so, every call fails as unavailable,
 * as a cache cluster in trouble would; otherwise calls pass through. Local tooling only (the demo,
 * drills and tests of the jobs' outage handling): never part of a job artifact.
 */
public final class SwitchableStore implements CacheStore {

    private final CacheStore inner;
    private final BooleanSupplier down;
    private final LongAdder refused;

    /** @param refused counts refused calls (shared by every store behind the same switch) */
    public SwitchableStore(CacheStore inner, BooleanSupplier down, LongAdder refused) {
        this.inner = inner;
        this.down = down;
        this.refused = refused;
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
    public WriteResult insertIfAbsent(CacheKey key, byte[] value, Duration expiry) {
        check("insert");
        return inner.insertIfAbsent(key, value, expiry);
    }

    @Override
    public WriteResult replaceIfCasMatches(CacheKey key, byte[] value, long expectedCas, Duration expiry) {
        check("replace");
        return inner.replaceIfCasMatches(key, value, expectedCas, expiry);
    }

    @Override
    public WriteResult upsert(CacheKey key, byte[] value, Duration expiry) {
        check("upsert");
        return inner.upsert(key, value, expiry);
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
