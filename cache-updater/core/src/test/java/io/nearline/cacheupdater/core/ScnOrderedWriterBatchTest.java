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

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.cacheupdater.core.testkit.KeyHistory;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreOrderedWrite;
import io.nearline.common.store.StoreUnavailableException;
import io.nearline.common.version.Version;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A batch handed to a store that orders writes itself: its keys' first tries go together, retries one by one. */
class ScnOrderedWriterBatchTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final InMemoryMetrics metrics = new InMemoryMetrics();

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    @Test
    void theKeysFirstTriesGoToTheStoreTogetherAndEachEndsAsAlone() throws Exception {
        OrderingStore store = new OrderingStore(0);
        ScnOrderedWriter writer = writer(store);
        CacheKey older = new CacheKey("t:older");
        writer.write(older, KeyHistory.record(older, Version.of(10, 1), false));
        store.calls.clear();

        List<WriteResult> results =
                writeAll(writer, List.of(change("t:new", 5), change("t:older", 9), change("t:other", 1)));

        assertEquals(List.of(3), store.calls, "one call carrying the three keys");
        assertEquals(
                List.of(WriteOutcome.APPLIED, WriteOutcome.STALE, WriteOutcome.APPLIED),
                results.stream().map(WriteResult::outcome).toList());
        assertEquals(Version.of(10, 1), results.get(1).winner());
        assertEquals(1, metrics.count("write.stale"));
    }

    @Test
    void aBatchTheStoreCouldNotTakeIsTriedAgainKeyByKeyAndEveryKeyLands() throws Exception {
        OrderingStore store = new OrderingStore(1);
        ScnOrderedWriter writer = writer(store);

        List<WriteResult> results = writeAll(writer, List.of(change("t:a", 1), change("t:b", 2), change("t:c", 3)));

        assertEquals(List.of(3, 1, 1, 1), store.calls, "the failed batch, then each key on its own");
        for (WriteResult r : results) {
            assertEquals(WriteOutcome.APPLIED, r.outcome());
            assertEquals(2, r.attempts());
        }
        assertEquals(1, store.stored(new CacheKey("t:a")));
        assertEquals(2, store.stored(new CacheKey("t:b")));
        assertEquals(3, store.stored(new CacheKey("t:c")));
        assertEquals(3, metrics.count("write.retries.unavailable"));
    }

    private ScnOrderedWriter writer(CacheStore store) {
        WriterSettings quickRetries = new WriterSettings(
                Duration.ofHours(1), 5, new Backoff(Duration.ofMillis(1), Duration.ofMillis(5)), Map.of());
        return new ScnOrderedWriter(store, quickRetries, metrics);
    }

    private List<WriteResult> writeAll(ScnOrderedWriter writer, List<ScnOrderedWriter.Change> changes)
            throws Exception {
        List<WriteResult> results = new ArrayList<>();
        for (CompletableFuture<WriteResult> r : writer.writeAllAsync(changes, timer)) {
            results.add(r.get(10, TimeUnit.SECONDS));
        }
        return results;
    }

    private static ScnOrderedWriter.Change change(String key, long scn) {
        CacheKey k = new CacheKey(key);
        return new ScnOrderedWriter.Change(k, KeyHistory.record(k, Version.of(scn, 1), false), false);
    }

    /**
     * A store that compares versions itself, as Redis's function does, and records how many keys each of
     * its calls carried; its first {@code failFirst} calls fail as an unreachable server's would.
     */
    private static final class OrderingStore implements CacheStore, StoreOrderedWrite {
        final List<Integer> calls = new ArrayList<>();
        private final InMemoryCacheStore inner = new InMemoryCacheStore();
        private int failFirst;

        OrderingStore(int failFirst) {
            this.failFirst = failFirst;
        }

        long stored(CacheKey key) {
            return CacheRecordCodec.decodeVersion(inner.get(key).orElseThrow().value())
                    .scn()
                    .value();
        }

        @Override
        public synchronized List<CompletableFuture<Result>> writeAllIfNewer(List<Write> writes) {
            calls.add(writes.size());
            boolean fail = failFirst > 0;
            failFirst--;
            return writes.stream()
                    .map(w -> fail
                            ? CompletableFuture.<Result>failedFuture(new StoreUnavailableException("not reachable"))
                            : CompletableFuture.completedFuture(writeNow(w)))
                    .toList();
        }

        @Override
        public CompletableFuture<Result> writeIfNewer(
                CacheKey key, byte[] record, boolean rewriteEqual, Duration expiry) {
            return writeAllIfNewer(List.of(new Write(key, record, rewriteEqual, expiry)))
                    .get(0);
        }

        private Result writeNow(Write w) {
            Optional<Stored> held = inner.get(w.key());
            Version before =
                    held.map(s -> CacheRecordCodec.decodeVersion(s.value())).orElse(Version.NONE);
            int order = held.isEmpty()
                    ? 1
                    : CacheRecordCodec.decodeVersion(w.record()).compareTo(before);
            if (order < 0) {
                return new Result(Outcome.STALE, before);
            }
            if (order == 0 && !w.rewriteEqual()) {
                return new Result(Outcome.DUPLICATE, before);
            }
            inner.upsert(w.key(), w.record(), w.expiry());
            return new Result(order == 0 ? Outcome.REFRESHED : Outcome.APPLIED, before);
        }

        @Override
        public Optional<StoreOrderedWrite> orderedWrite() {
            return Optional.of(this);
        }

        @Override
        public boolean isAsync() {
            return true;
        }

        @Override
        public Optional<Stored> get(CacheKey key) {
            return inner.get(key);
        }

        @Override
        public CacheStore.WriteResult insertIfAbsent(CacheKey key, byte[] value, Duration expiry) {
            return inner.insertIfAbsent(key, value, expiry);
        }

        @Override
        public CacheStore.WriteResult replaceIfCasMatches(
                CacheKey key, byte[] value, long expectedCas, Duration expiry) {
            return inner.replaceIfCasMatches(key, value, expectedCas, expiry);
        }

        @Override
        public CacheStore.WriteResult upsert(CacheKey key, byte[] value, Duration expiry) {
            return inner.upsert(key, value, expiry);
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
