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

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.testkit.FaultyCacheStore;
import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.testkit.ChangeEventGenerator;
import io.nearline.common.testkit.Seeds;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The batch engine Samza's task and Connect's task drive: when it cuts, what it hands back, in what order. */
class BackgroundWritesTest {

    private static final int MAX_KEYS = 4;
    private static final Duration NEVER = Duration.ofHours(1);

    private final InMemoryCacheStore memory = new InMemoryCacheStore();
    private final FaultyCacheStore store = new FaultyCacheStore(memory);
    private final InMemoryMetrics metrics = new InMemoryMetrics();
    private final Recorder runtime = new Recorder();
    private BackgroundWrites<Integer> writes;

    /** A runtime whose marks number the cuts, and which records what comes back. */
    static final class Recorder implements BackgroundWrites.Runtime<Integer> {
        int taken; // changes taken since the last cut (under the lock)
        int cuts;
        final List<Integer> written = Collections.synchronizedList(new ArrayList<>());
        final AtomicReference<RuntimeException> failed = new AtomicReference<>();

        @Override
        public Integer marks() {
            if (taken == 0) {
                return null;
            }
            taken = 0;
            return ++cuts;
        }

        @Override
        public void written(Integer cut, List<UpdateBatch.Refused> refused) {
            written.add(cut);
        }

        @Override
        public void failed(Integer cut, RuntimeException e) {
            failed.set(e);
        }
    }

    private BackgroundWrites<Integer> start(Duration maxDelay) {
        ScnOrderedWriter writer = new ScnOrderedWriter(
                store,
                new WriterSettings(Duration.ofHours(1), 3, new Backoff(Duration.ZERO, Duration.ZERO)),
                metrics,
                Clock.systemUTC(),
                d -> {},
                new Random(1));
        CacheWritePath path =
                new CacheWritePath(store, new UpdateBatch(writer, metrics, Duration.ofMillis(50), 2), MAX_KEYS);
        writes = new BackgroundWrites<>(path, maxDelay, "test", runtime);
        return writes;
    }

    @AfterEach
    void stop() {
        if (writes != null) {
            writes.close(Duration.ofSeconds(5));
        }
    }

    private static ChangeEvent event(String key, long scn) {
        return ChangeEventGenerator.event(key, 0, scn, false);
    }

    private void add(String key, long scn, boolean cutNow) {
        synchronized (writes.lock()) {
            runtime.taken++;
            writes.add(event(key, scn), new SourceRecord("test", "t", 0, scn, null, null), false, () -> cutNow);
        }
    }

    private long storedScn(String key) {
        return CacheRecordCodec.decode(
                        memory.get(CacheKey.of(key)).orElseThrow().value())
                .version()
                .scn()
                .value();
    }

    @Test
    void aFullBatchIsCutAndWrittenWithItsMarks() {
        start(NEVER);
        for (int k = 0; k < MAX_KEYS; k++) {
            add("k" + k, 1, false);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> runtime.written.equals(List.of(1)));
        for (int k = 0; k < MAX_KEYS; k++) {
            assertEquals(1, storedScn("k" + k));
        }
        assertEquals(MAX_KEYS, metrics.count(UpdateBatch.WRITTEN));
    }

    @Test
    void aBatchThatIsNotFullWaitsForTheRuntimeToAsk() {
        start(NEVER);
        add("a", 1, false);
        assertEquals(0, runtime.cuts, "one key of four, no timer yet: nothing cut");
        add("b", 1, true); // the runtime's own reason (Samza: half its concurrency waits)
        await().atMost(Duration.ofSeconds(10)).until(() -> runtime.written.equals(List.of(1)));
        assertEquals(1, storedScn("a"));
        assertEquals(1, storedScn("b"));
    }

    @Test
    void theTimerCutsABatchThatIsNotFull() {
        start(Duration.ofMillis(20));
        add("c", 2, false);
        await().atMost(Duration.ofSeconds(10)).until(() -> runtime.written.equals(List.of(1)));
        assertEquals(2, storedScn("c"));
    }

    @Test
    void theTimerCutsNothingWhenNothingWasTaken() throws Exception {
        start(Duration.ofMillis(5));
        AtomicInteger seen = new AtomicInteger();
        await().pollDelay(Duration.ofMillis(100)).atMost(Duration.ofSeconds(5)).until(() -> {
            seen.set(runtime.cuts);
            return true;
        });
        assertEquals(0, seen.get(), "no marks, no cut");
        assertTrue(memory.contents().isEmpty());
    }

    @Test
    void cutsAreWrittenInTheOrderTheyWereCutSoEachKeyEndsAtItsNewestVersion() {
        long seed = Seeds.seed();
        Random random = new Random(seed);
        start(Duration.ofMillis(1));
        long[] newest = new long[5];
        for (int scn = 1; scn <= 2_000; scn++) {
            int key = random.nextInt(newest.length);
            newest[key] = scn;
            add("k" + key, scn, random.nextInt(7) == 0);
        }
        synchronized (writes.lock()) {
            writes.cut();
        }
        int cuts = runtime.cuts;
        await().atMost(Duration.ofSeconds(30)).until(() -> runtime.written.size() == cuts);
        List<Integer> inOrder = new ArrayList<>();
        for (int c = 1; c <= cuts; c++) {
            inOrder.add(c);
        }
        assertEquals(inOrder, runtime.written, Seeds.replay(seed));
        for (int k = 0; k < newest.length; k++) {
            assertEquals(newest[k], storedScn("k" + k), "k" + k + " " + Seeds.replay(seed));
        }
        assertEquals(0, metrics.count("write.stale"), "no cut overtook an earlier one: " + Seeds.replay(seed));
    }

    @Test
    void aStoreOutageHoldsTheCutUntilItsWritesAreDurable() {
        start(NEVER);
        store.failNext(3); // refused three times, then the retries go through
        add("a", 1, true);
        await().atMost(Duration.ofSeconds(10)).until(() -> runtime.written.equals(List.of(1)));
        assertEquals(1, storedScn("a"));
        assertTrue(metrics.count("write.retries.unavailable") >= 1, "the outage was retried, not dropped");
        assertEquals(null, runtime.failed.get());
    }

    @Test
    void aCloseStopsTheThreadsAndClosesTheStore() {
        start(Duration.ofMillis(1));
        add("a", 1, true);
        await().atMost(Duration.ofSeconds(10)).until(() -> runtime.written.equals(List.of(1)));
        writes.close(Duration.ofSeconds(5));
        writes = null;
        await().atMost(Duration.ofSeconds(5)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().endsWith("-test") && t.getName().startsWith("cache-")));
        assertFalse(store.health().healthy(), "the store is closed with the path");
    }
}
