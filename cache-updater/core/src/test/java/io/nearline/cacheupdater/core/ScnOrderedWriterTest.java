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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.testkit.FaultyCacheStore;
import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.cacheupdater.core.testkit.KeyHistory;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreException;
import io.nearline.common.testkit.ManualClock;
import io.nearline.common.version.Version;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class ScnOrderedWriterTest {

    private static final CacheKey K = CacheKey.of("member:1");
    private static final Duration TTL = Duration.ofHours(3);

    private final ManualClock clock = new ManualClock();
    private final InMemoryCacheStore memory = new InMemoryCacheStore(clock);
    private final FaultyCacheStore store = new FaultyCacheStore(memory);
    private final InMemoryMetrics metrics = new InMemoryMetrics();
    private final List<Duration> sleeps = new ArrayList<>();
    private final WriterSettings settings =
            new WriterSettings(TTL, 5, new Backoff(Duration.ofMillis(10), Duration.ofSeconds(1)));
    private final ScnOrderedWriter writer =
            new ScnOrderedWriter(store, settings, metrics, clock, sleeps::add, new Random(3));

    private static CacheRecord upsert(long scn, int schema) {
        return KeyHistory.record(K, Version.of(scn, schema), false);
    }

    private CacheRecord stored() {
        return CacheRecordCodec.decode(memory.get(K).orElseThrow().value());
    }

    @Test
    void firstWriteInsertsAndStampsTheWriteTime() {
        WriteResult r = writer.write(K, upsert(10, 1));
        assertEquals(WriteOutcome.APPLIED, r.outcome());
        assertEquals(1, r.attempts());
        assertEquals(Version.of(10, 1), r.winner());
        assertEquals(clock.millis(), stored().writeTimeMillis());
    }

    @Test
    void staleAndDuplicateReportTheStoredWinner() {
        writer.write(K, upsert(10, 1));
        WriteResult stale = writer.write(K, upsert(9, 4));
        assertEquals(WriteOutcome.STALE, stale.outcome());
        assertEquals(Version.of(10, 1), stale.winner());
        assertEquals(WriteOutcome.DUPLICATE, writer.write(K, upsert(10, 1)).outcome());
        assertEquals(1, metrics.count("write.stale"));
        assertEquals(1, metrics.count("write.duplicate"));
    }

    @Test
    void everyMutationCarriesTheTtl() {
        writer.write(K, upsert(1, 1));
        writer.write(K, upsert(2, 1));
        writer.write(K, KeyHistory.record(K, Version.of(3, 1), true));
        assertEquals(List.of(TTL, TTL, TTL), store.mutationExpiries());
    }

    @Test
    void aWriterThatSlipsInBetweenIsRespected() {
        writer.write(K, upsert(10, 1));
        // between our read and our replace, another writer stores a newer version
        store.interleaveAfterRead(1, key -> memory.upsert(key, CacheRecordCodec.encode(upsert(30, 1)), TTL));
        WriteResult r = writer.write(K, upsert(20, 1));
        assertEquals(WriteOutcome.STALE, r.outcome());
        assertEquals(2, r.attempts());
        assertEquals(Version.of(30, 1), stored().version());
        assertEquals(1, metrics.count("write.retries.conflict"));
    }

    @Test
    void aConcurrentInsertOfAnOlderVersionIsOverwritten() {
        store.interleaveAfterRead(1, key -> memory.insertIfAbsent(key, CacheRecordCodec.encode(upsert(5, 1)), TTL));
        WriteResult r = writer.write(K, upsert(20, 1));
        assertEquals(WriteOutcome.APPLIED, r.outcome());
        assertEquals(2, r.attempts());
        assertEquals(Version.of(20, 1), stored().version());
    }

    @Test
    void transientFailuresAreRetriedWithGrowingJitteredBackoff() {
        store.failNext(3);
        WriteResult r = writer.write(K, upsert(1, 1));
        assertEquals(WriteOutcome.APPLIED, r.outcome());
        assertEquals(4, r.attempts());
        assertEquals(3, metrics.count("write.retries.unavailable"));
        assertEquals(3, sleeps.size());
        for (int i = 0; i < sleeps.size(); i++) {
            long cap = 10L << i;
            long ms = sleeps.get(i).toMillis();
            assertTrue(ms >= cap / 2 && ms <= cap, "sleep " + i + " was " + ms + " ms");
        }
    }

    @Test
    void exhaustedRetriesFailWithTheCauseAndWriteNothing() {
        store.failNext(100);
        WriteResult r = writer.write(K, upsert(1, 1));
        assertEquals(WriteOutcome.FAILED, r.outcome());
        assertEquals(5, r.attempts());
        assertEquals(4, sleeps.size()); // no pointless sleep after the last attempt
        assertTrue(
                r.failure().getMessage().contains("injected outage"),
                r.failure().getMessage());
        assertEquals(1, metrics.count("write.failed"));
        store.failNext(0);
        assertTrue(memory.get(K).isEmpty());
    }

    @Test
    void unreadableStoredBytesAreNeverOverwritten() {
        byte[] foreign = {0x7f, 1, 2, 3};
        memory.upsert(K, foreign, TTL);
        WriteResult r = writer.write(K, upsert(99, 1));
        assertEquals(WriteOutcome.FAILED, r.outcome());
        assertEquals(1, r.attempts());
        assertTrue(r.failure().getMessage().contains("unreadable"), r.failure().getMessage());
        assertArrayEquals(foreign, memory.get(K).orElseThrow().value());
    }

    @Test
    void nonRetriableStoreErrorsFailAtOnce() {
        CacheStore broken = new InMemoryCacheStore(clock);
        broken.close();
        WriteResult r = new ScnOrderedWriter(broken, settings, metrics, clock, sleeps::add, new Random(1))
                .write(K, upsert(1, 1));
        assertEquals(WriteOutcome.FAILED, r.outcome());
        assertEquals(1, r.attempts());
        assertInstanceOf(StoreException.class, r.failure());
        assertTrue(sleeps.isEmpty());
    }

    @Test
    void interruptionStopsRetryingAndKeepsTheFlag() {
        store.failNext(100);
        ScnOrderedWriter interrupted = new ScnOrderedWriter(
                store,
                settings,
                metrics,
                clock,
                d -> {
                    throw new InterruptedException();
                },
                new Random(1));
        WriteResult r = interrupted.write(K, upsert(1, 1));
        assertEquals(WriteOutcome.FAILED, r.outcome());
        assertInstanceOf(InterruptedException.class, r.failure());
        assertTrue(Thread.interrupted()); // also clears it for the next test
    }

    @Test
    void anExpiredNewerRecordNoLongerBlocksAnOlderOne() {
        // TTL is the safety net: once the newest record expired, the cache is simply empty again
        writer.write(K, upsert(10, 1));
        clock.advance(TTL.plusSeconds(1));
        assertEquals(WriteOutcome.APPLIED, writer.write(K, upsert(5, 1)).outcome());
    }

    @Test
    void aBlockingWriteWaitsOutItsRetriesOnTheCallingThread() {
        ExecutorService io = Executors.newSingleThreadExecutor();
        try {
            store.failNext(2).answeringOn(io);
            List<Thread> pausedOn = new ArrayList<>();
            ScnOrderedWriter overTheNetwork = new ScnOrderedWriter(
                    store, settings, metrics, clock, d -> pausedOn.add(Thread.currentThread()), new Random(1));
            WriteResult r = overTheNetwork.write(K, upsert(1, 1));
            assertEquals(WriteOutcome.APPLIED, r.outcome());
            assertEquals(3, r.attempts());
            // the store's thread only handed the retries back: it never slept in a backoff
            assertEquals(List.of(Thread.currentThread(), Thread.currentThread()), pausedOn);
        } finally {
            io.shutdownNow();
        }
    }
}
