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
import io.nearline.common.store.StoreUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Wraps a store and breaks it on demand: the next N operations fail as unavailable, or another writer
 * slips in between a read and the following mutation. Records the expiry of every mutation.
 */
public final class FaultyCacheStore implements CacheStore {

    private final CacheStore delegate;
    private final AtomicInteger failNext = new AtomicInteger();
    private final AtomicInteger interleaveNext = new AtomicInteger();
    private volatile Consumer<CacheKey> interloper = k -> {};
    private final List<Duration> mutationExpiries = new CopyOnWriteArrayList<>();
    private final List<CacheKey> failedKeys = new CopyOnWriteArrayList<>();
    private volatile Executor answers; // null: on the calling thread

    public FaultyCacheStore(CacheStore delegate) {
        this.delegate = delegate;
    }

    /** The next {@code n} operations throw {@link StoreUnavailableException}. */
    public FaultyCacheStore failNext(int n) {
        failNext.set(n);
        return this;
    }

    /** After each of the next {@code n} reads, {@code writer} runs before the caller's mutation. */
    public FaultyCacheStore interleaveAfterRead(int n, Consumer<CacheKey> writer) {
        interloper = writer;
        interleaveNext.set(n);
        return this;
    }

    /** Its writes answered on {@code io}, as a networked store's client does ({@link #isAsync} then true). */
    public FaultyCacheStore answeringOn(Executor io) {
        answers = io;
        return this;
    }

    @Override
    public CompletableFuture<WriteResult> writeDecidedAsync(
            CacheKey key, Duration expiry, Function<Optional<byte[]>, byte[]> decide) {
        Executor io = answers;
        return io == null
                ? CacheStore.super.writeDecidedAsync(key, expiry, decide)
                : CompletableFuture.supplyAsync(() -> writeDecided(key, expiry, decide), io);
    }

    @Override
    public boolean isAsync() {
        return answers != null;
    }

    public List<Duration> mutationExpiries() {
        return mutationExpiries;
    }

    @Override
    public Optional<Stored> get(CacheKey key) {
        maybeFail("get", key);
        Optional<Stored> result = delegate.get(key);
        if (interleaveNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            interloper.accept(key);
        }
        return result;
    }

    @Override
    public WriteResult insertIfAbsent(CacheKey key, byte[] value, Duration expiry) {
        maybeFail("insert", key);
        mutationExpiries.add(expiry);
        return delegate.insertIfAbsent(key, value, expiry);
    }

    @Override
    public WriteResult replaceIfCasMatches(CacheKey key, byte[] value, long expectedCas, Duration expiry) {
        maybeFail("replace", key);
        mutationExpiries.add(expiry);
        return delegate.replaceIfCasMatches(key, value, expectedCas, expiry);
    }

    @Override
    public WriteResult upsert(CacheKey key, byte[] value, Duration expiry) {
        maybeFail("upsert", key);
        mutationExpiries.add(expiry);
        return delegate.upsert(key, value, expiry);
    }

    @Override
    public Health health() {
        return failNext.get() > 0 ? Health.down("injected outage") : delegate.health();
    }

    @Override
    public void close() {
        delegate.close();
    }

    /** The keys of the operations failed so far, in order. */
    public List<CacheKey> failedKeys() {
        return failedKeys;
    }

    private void maybeFail(String op, CacheKey key) {
        if (failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            failedKeys.add(key);
            throw new StoreUnavailableException("injected outage during " + op);
        }
    }
}
