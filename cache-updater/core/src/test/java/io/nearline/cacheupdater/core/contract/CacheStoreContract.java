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
package io.nearline.cacheupdater.core.contract;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.PartialImageException;
import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriteOutcome;
import io.nearline.cacheupdater.core.WriteResult;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.testkit.KeyHistory;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStore.Status;
import io.nearline.common.store.StoreException;
import io.nearline.common.testkit.Seeds;
import io.nearline.common.version.Version;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * What every {@link CacheStore} must do, at the port and through the SCN-ordered write: CAS
 * semantics, expiry on every mutation, tombstones, ordering under concurrent writers, and reopen.
 * A store's test extends this and supplies the store; keys are unique per test, so one store may be
 * shared by the tests of a class.
 */
public abstract class CacheStoreContract {

    private static final Duration LONG_TTL = Duration.ofHours(1);

    private String prefix;

    /** The store under test (may be shared between tests). */
    protected abstract CacheStore store();

    /** Closes the store and opens it again on the same data; stores without durable data abort the test. */
    protected CacheStore reopen() {
        Assumptions.abort("this store keeps no data across a reopen");
        return null;
    }

    /** A store that is closed, to check what operations do then; null skips that check. */
    protected CacheStore closedStore() {
        return null;
    }

    /** The shortest expiry the store honours (Couchbase counts in whole seconds). */
    protected Duration shortTtl() {
        return Duration.ofSeconds(1);
    }

    /** Size of the race tests: number of keys and of racing threads. Slow stores pick smaller ones. */
    protected int raceKeys() {
        return 60;
    }

    protected int raceThreads() {
        return 4;
    }

    @BeforeEach
    void uniqueKeys(TestInfo info) {
        prefix = info.getTestMethod().orElseThrow().getName() + "-" + Long.toHexString(System.nanoTime()) + ":";
    }

    protected CacheKey key(String name) {
        return CacheKey.of(prefix + name);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // ---- the port ------------------------------------------------------------------------------

    @Test
    void absentKeyReadsEmpty() {
        assertEquals(Optional.empty(), store().get(key("nothing")));
    }

    @Test
    void insertIfAbsentStoresValueWithACasToken() {
        CacheKey k = key("a");
        CacheStore.WriteResult r = store().insertIfAbsent(k, bytes("one"), LONG_TTL);
        assertEquals(Status.OK, r.status());
        CacheStore.Stored stored = store().get(k).orElseThrow();
        assertArrayEquals(bytes("one"), stored.value());
        assertEquals(r.cas(), stored.cas());
    }

    @Test
    void insertIfAbsentOnAPresentKeyLeavesItAlone() {
        CacheKey k = key("a");
        store().insertIfAbsent(k, bytes("one"), LONG_TTL);
        assertEquals(
                Status.EXISTS, store().insertIfAbsent(k, bytes("two"), LONG_TTL).status());
        assertArrayEquals(bytes("one"), store().get(k).orElseThrow().value());
    }

    @Test
    void replaceWithTheCurrentCasSucceedsAndChangesTheCas() {
        CacheKey k = key("a");
        long cas = store().insertIfAbsent(k, bytes("one"), LONG_TTL).cas();
        CacheStore.WriteResult r = store().replaceIfCasMatches(k, bytes("two"), cas, LONG_TTL);
        assertEquals(Status.OK, r.status());
        assertNotEquals(cas, r.cas());
        CacheStore.Stored stored = store().get(k).orElseThrow();
        assertArrayEquals(bytes("two"), stored.value());
        assertEquals(r.cas(), stored.cas());
    }

    @Test
    void replaceWithAStaleCasIsAMismatchAndChangesNothing() {
        CacheKey k = key("a");
        long first = store().insertIfAbsent(k, bytes("one"), LONG_TTL).cas();
        store().replaceIfCasMatches(k, bytes("two"), first, LONG_TTL);
        assertEquals(
                Status.CAS_MISMATCH,
                store().replaceIfCasMatches(k, bytes("three"), first, LONG_TTL).status());
        assertArrayEquals(bytes("two"), store().get(k).orElseThrow().value());
    }

    @Test
    void replaceOfAnAbsentKeyIsNotFound() {
        assertEquals(
                Status.NOT_FOUND,
                store().replaceIfCasMatches(key("ghost"), bytes("x"), 12345L, LONG_TTL)
                        .status());
        assertEquals(Optional.empty(), store().get(key("ghost")));
    }

    @Test
    void upsertWritesWhateverIsThere() {
        CacheKey k = key("a");
        store().insertIfAbsent(k, bytes("one"), LONG_TTL);
        assertEquals(Status.OK, store().upsert(k, bytes("two"), LONG_TTL).status());
        assertArrayEquals(bytes("two"), store().get(k).orElseThrow().value());
    }

    @Test
    void upsertAsyncWritesWhateverIsThere() throws Exception {
        CacheKey k = key("a");
        store().insertIfAbsent(k, bytes("one"), LONG_TTL);
        CacheStore.WriteResult r =
                store().upsertAsync(k, bytes("two"), LONG_TTL).get(30, TimeUnit.SECONDS);
        assertEquals(Status.OK, r.status());
        assertArrayEquals(bytes("two"), store().get(k).orElseThrow().value());
        assertEquals(r.cas(), store().get(k).orElseThrow().cas());
    }

    @Test
    void everyMutationNeedsAPositiveExpiry() {
        CacheKey k = key("a");
        assertThrows(IllegalArgumentException.class, () -> store().insertIfAbsent(k, bytes("x"), Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> store().upsert(k, bytes("x"), Duration.ofSeconds(-1)));
        assertThrows(IllegalArgumentException.class, () -> store().replaceIfCasMatches(k, bytes("x"), 1, null));
    }

    /**
     * A scan by pages lists every key under its prefix, and none outside it, whatever the prefix holds
     * of the pattern characters a store might read (Redis's glob); a store that cannot list keys says so.
     */
    @Test
    void aScanByPagesListsEveryKeyUnderItsPrefixAndNoOther() {
        Set<String> under = new TreeSet<>();
        for (int i = 0; i < 23; i++) {
            CacheKey k = key("t*[a]?\\:" + i);
            store().upsert(k, bytes("x"), LONG_TTL);
            under.add(k.value());
        }
        store().upsert(key("t*[a]?\\"), bytes("x"), LONG_TTL); // the prefix less its colon: outside
        store().upsert(key("tX[a]?\\:1"), bytes("x"), LONG_TTL); // what an unescaped * would match
        String prefix = key("t*[a]?\\:").value();
        CacheStore.KeyPage page;
        try {
            page = store().scanKeys(prefix, null, 5);
        } catch (UnsupportedOperationException e) {
            Assumptions.abort(e.getMessage());
            return;
        }
        Set<String> listed = new TreeSet<>();
        for (int pages = 1; ; pages++) {
            page.keys().forEach(k -> listed.add(k.value()));
            if (page.next() == null) {
                break;
            }
            assertTrue(pages < 1000, "the scan ends");
            page = store().scanKeys(prefix, page.next(), 5);
        }
        assertEquals(under, listed);
    }

    @Test
    void largeValuesAndNonAsciiKeysRoundTrip() {
        CacheKey k = key("профиль-プロフィール-🙂");
        byte[] big = new byte[100 * 1024];
        new Random(7).nextBytes(big);
        store().insertIfAbsent(k, big, LONG_TTL);
        assertArrayEquals(big, store().get(k).orElseThrow().value());
    }

    @Test
    void recordsExpireAfterTheirTtl() {
        CacheKey k = key("short-lived");
        store().insertIfAbsent(k, bytes("x"), shortTtl());
        await().atMost(shortTtl().plusSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> store().get(k).isEmpty());
        // an expired key is absent for writes too
        assertEquals(
                Status.NOT_FOUND,
                store().replaceIfCasMatches(k, bytes("y"), 1, LONG_TTL).status());
        assertEquals(Status.OK, store().insertIfAbsent(k, bytes("z"), LONG_TTL).status());
    }

    /** Couchbase drops the expiry on a replace unless it is given again: the store must always give it. */
    @Test
    void replaceSetsTheNewExpiry() {
        CacheKey k = key("re-ttl");
        long cas = store().insertIfAbsent(k, bytes("x"), LONG_TTL).cas();
        store().replaceIfCasMatches(k, bytes("y"), cas, shortTtl());
        await().atMost(shortTtl().plusSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> store().get(k).isEmpty());
    }

    @Test
    void casIncrementsFromManyThreadsLoseNoUpdate() throws Exception {
        CacheKey k = key("counter");
        assertRacingIncrementsLoseNothing(k, () -> {
            CacheStore.Stored cur = store().get(k).orElseThrow();
            int n = Integer.parseInt(new String(cur.value(), StandardCharsets.UTF_8));
            return store().replaceIfCasMatches(k, bytes(Integer.toString(n + 1)), cur.cas(), LONG_TTL)
                    .ok();
        });
    }

    /**
     * A counter at {@code k}, incremented from {@link #raceThreads} threads at once, each increment
     * tried again until {@code incrementOnce} reports it written: the end count must be every one.
     */
    private void assertRacingIncrementsLoseNothing(CacheKey k, BooleanSupplier incrementOnce) throws Exception {
        store().insertIfAbsent(k, bytes("0"), LONG_TTL);
        int threads = raceThreads();
        int perThread = Math.max(10, raceKeys() / 2);
        List<Callable<Integer>> tasks = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            tasks.add(() -> {
                int conflicts = 0;
                for (int done = 0; done < perThread; ) {
                    if (incrementOnce.getAsBoolean()) {
                        done++;
                    } else {
                        conflicts++; // lost a race: read and decide again
                    }
                }
                return conflicts;
            });
        }
        runAll(tasks);
        assertEquals(
                Integer.toString(threads * perThread),
                new String(store().get(k).orElseThrow().value(), StandardCharsets.UTF_8));
    }

    @Test
    void writeDecidedSeesWhatIsStoredAndWritesNothingWhenTold() {
        CacheKey k = key("decided");
        List<Optional<String>> seen = new ArrayList<>();
        CacheStore.WriteResult first = store().writeDecided(k, LONG_TTL, current -> {
            seen.add(current.map(v -> new String(v, StandardCharsets.UTF_8)));
            return bytes("a");
        });
        assertTrue(first.ok(), "written where absent: " + first);
        assertNull(store().writeDecided(k, LONG_TTL, current -> {
            seen.add(current.map(v -> new String(v, StandardCharsets.UTF_8)));
            return null;
        }));
        assertEquals(List.of(Optional.empty(), Optional.of("a")), seen);
        assertEquals("a", new String(store().get(k).orElseThrow().value(), StandardCharsets.UTF_8));
        assertEquals(first.cas(), store().get(k).orElseThrow().cas(), "nothing written: the same state");
    }

    /** Increments through {@link CacheStore#writeDecided} from many threads: a write that returns OK is never lost. */
    @Test
    void writeDecidedFromManyThreadsLosesNoUpdate() throws Exception {
        CacheKey k = key("decided-counter");
        assertRacingIncrementsLoseNothing(k, () -> store().writeDecided(k, LONG_TTL, current -> {
                    int n = Integer.parseInt(new String(current.orElseThrow(), StandardCharsets.UTF_8));
                    return bytes(Integer.toString(n + 1));
                })
                .ok());
    }

    @Test
    void writeDecidedAsyncDecidesOnWhatIsStored() throws Exception {
        CacheKey k = key("decided-async");
        CacheStore.WriteResult first = store().writeDecidedAsync(
                        k, LONG_TTL, current -> current.isEmpty() ? bytes("a") : null)
                .get(30, TimeUnit.SECONDS);
        assertTrue(first.ok(), "written where absent: " + first);
        assertNull(store().writeDecidedAsync(k, LONG_TTL, current -> null).get(30, TimeUnit.SECONDS));
        CacheStore.WriteResult second = store().writeDecidedAsync(
                        k, LONG_TTL, current -> bytes(new String(current.orElseThrow(), StandardCharsets.UTF_8) + "b"))
                .get(30, TimeUnit.SECONDS);
        assertTrue(second.ok(), "replaced what it read: " + second);
        assertEquals("ab", new String(store().get(k).orElseThrow().value(), StandardCharsets.UTF_8));
    }

    /** Many keys' asynchronous increments in flight at once from one thread: none is lost. */
    @Test
    void writeDecidedAsyncFromOneThreadLosesNoUpdate() throws Exception {
        int keys = 50;
        int rounds = 20;
        for (int round = 0; round < rounds; round++) {
            List<CompletableFuture<CacheStore.WriteResult>> inFlight = new ArrayList<>();
            for (int i = 0; i < keys; i++) {
                inFlight.add(store().writeDecidedAsync(
                                key("async-" + i),
                                LONG_TTL,
                                current -> bytes(Integer.toString(
                                        current.map(v -> Integer.parseInt(new String(v, StandardCharsets.UTF_8)))
                                                        .orElse(0)
                                                + 1))));
            }
            for (CompletableFuture<CacheStore.WriteResult> write : inFlight) {
                assertTrue(write.get(30, TimeUnit.SECONDS).ok(), "one writer per key: no conflict");
            }
        }
        for (int i = 0; i < keys; i++) {
            assertEquals(
                    Integer.toString(rounds),
                    new String(store().get(key("async-" + i)).orElseThrow().value(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void healthyWhenOpen() {
        assertTrue(store().health().healthy(), store().health().detail());
    }

    @Test
    void closeIsIdempotentAndLaterCallsFailClearly() {
        CacheStore closed = closedStore();
        Assumptions.assumeTrue(closed != null, "no separate store instance to close");
        closed.close();
        assertFalse(closed.health().healthy());
        assertThrows(StoreException.class, () -> closed.get(key("a")));
        assertThrows(StoreException.class, () -> closed.insertIfAbsent(key("a"), bytes("x"), LONG_TTL));
    }

    @Test
    void dataSurvivesReopen() {
        CacheKey k = key("durable");
        store().insertIfAbsent(k, bytes("kept"), LONG_TTL);
        CacheStore reopened = reopen();
        assertArrayEquals(bytes("kept"), reopened.get(k).orElseThrow().value());
        // and CAS keeps working on the data that came back
        CacheStore.Stored s = reopened.get(k).orElseThrow();
        assertEquals(
                Status.OK,
                reopened.replaceIfCasMatches(k, bytes("changed"), s.cas(), LONG_TTL)
                        .status());
    }

    // ---- through the SCN-ordered write ---------------------------------------------------------

    private ScnOrderedWriter writer(InMemoryMetrics metrics) {
        return new ScnOrderedWriter(store(), WriterSettings.defaults().withTtl(LONG_TTL), metrics);
    }

    private CacheRecord stored(CacheKey k) {
        return CacheRecordCodec.decode(store().get(k).orElseThrow().value());
    }

    @Test
    void orderedWriteKeepsTheMaximumVersion() {
        CacheKey k = key("ordered");
        InMemoryMetrics metrics = new InMemoryMetrics();
        ScnOrderedWriter w = writer(metrics);
        assertEquals(
                WriteOutcome.APPLIED,
                w.write(k, KeyHistory.record(k, Version.of(5, 1), false)).outcome());
        assertEquals(
                WriteOutcome.STALE,
                w.write(k, KeyHistory.record(k, Version.of(3, 9), false)).outcome());
        assertEquals(
                WriteOutcome.DUPLICATE,
                w.write(k, KeyHistory.record(k, Version.of(5, 1), false)).outcome());
        assertEquals(
                WriteOutcome.APPLIED,
                w.write(k, KeyHistory.record(k, Version.of(5, 2), false)).outcome());
        CacheRecord now = stored(k);
        assertEquals(Version.of(5, 2), now.version());
        assertArrayEquals(KeyHistory.payload(k, Version.of(5, 2)), now.payload());
        assertTrue(now.writeTimeMillis() > 0);
        assertEquals(2, metrics.count("write.applied"));
        assertEquals(1, metrics.count("write.stale"));
        assertEquals(1, metrics.count("write.duplicate"));
    }

    /** Debezium versions carry a sequence (record format 2); it decides between writes of one SCN. */
    @Test
    void aSequenceOrdersWritesThatShareAnScn() {
        CacheKey k = key("sequenced");
        ScnOrderedWriter w = writer(new InMemoryMetrics());
        assertEquals(
                WriteOutcome.APPLIED,
                w.write(k, KeyHistory.record(k, Version.of(5, 1), false)).outcome());
        assertEquals(
                WriteOutcome.APPLIED,
                w.write(k, KeyHistory.record(k, Version.of(5, 640, 0), true)).outcome(),
                "a format-2 tombstone over a format-1 record of one SCN");
        assertEquals(
                WriteOutcome.STALE,
                w.write(k, KeyHistory.record(k, Version.of(5, 610, 0), false)).outcome());
        assertEquals(
                WriteOutcome.DUPLICATE,
                w.write(k, KeyHistory.record(k, Version.of(5, 640, 0), true)).outcome());
        assertEquals(
                WriteOutcome.APPLIED,
                w.write(k, KeyHistory.record(k, Version.of(6, 1), false)).outcome(),
                "a format-1 record of a later SCN over a format-2 one");
        assertEquals(Version.of(6, 1), stored(k).version());
    }

    /**
     * A Debezium row whose source left a column out (an unchanged TOAST value) is completed from the
     * cached row inside the write, on every store (Redis too: it leaves its server-side path for this);
     * with nothing or a delete cached there is nothing to complete it from.
     */
    @Test
    void aRowWithUncapturedColumnsIsCompletedFromTheCachedOne() {
        CacheKey k = key("partial");
        ScnOrderedWriter w = writer(new InMemoryMetrics());
        assertEquals(
                WriteOutcome.APPLIED,
                w.write(
                                k,
                                CacheRecord.upsert(
                                        Version.of(5, 1, 0), 0, bytes("{\"id\":1,\"bio\":\"long text\",\"n\":1}")))
                        .outcome());
        byte[] partial = bytes("{\"id\":1,\"bio\":\"__debezium_unavailable_value\",\"n\":2}");
        assertEquals(
                WriteOutcome.APPLIED,
                w.write(k, CacheRecord.upsert(Version.of(5, 2, 0), 0, partial)).outcome());
        assertEquals(
                "{\"id\":1,\"bio\":\"long text\",\"n\":2}", new String(stored(k).payload(), StandardCharsets.UTF_8));
        assertEquals(Version.of(5, 2, 0), stored(k).version());
        assertEquals(
                WriteOutcome.STALE,
                w.write(k, CacheRecord.upsert(Version.of(5, 1, 0), 0, partial)).outcome(),
                "an older partial row is stale like any other");

        CacheKey nothing = key("partial-on-nothing");
        WriteResult refused = w.write(nothing, CacheRecord.upsert(Version.of(5, 2, 0), 0, partial));
        assertEquals(WriteOutcome.FAILED, refused.outcome());
        assertTrue(refused.failure() instanceof PartialImageException, String.valueOf(refused.failure()));
        assertTrue(store().get(nothing).isEmpty(), "nothing stored");

        CacheKey deleted = key("partial-on-delete");
        w.write(deleted, CacheRecord.tombstone(Version.of(5, 1, 0), 0));
        assertTrue(
                w.write(deleted, CacheRecord.upsert(Version.of(5, 2, 0), 0, partial))
                                .failure()
                        instanceof PartialImageException);
        assertTrue(stored(deleted).tombstone(), "the delete stays");
    }

    @Test
    void tombstonesBlockOlderUpsertsAndYieldToNewerOnes() {
        CacheKey k = key("deleted");
        ScnOrderedWriter w = writer(new InMemoryMetrics());
        w.write(k, KeyHistory.record(k, Version.of(5, 1), false));
        assertEquals(
                WriteOutcome.APPLIED,
                w.write(k, KeyHistory.record(k, Version.of(7, 1), true)).outcome());
        assertEquals(
                WriteOutcome.STALE,
                w.write(k, KeyHistory.record(k, Version.of(6, 1), false)).outcome());
        assertTrue(stored(k).tombstone());
        assertEquals(
                WriteOutcome.APPLIED,
                w.write(k, KeyHistory.record(k, Version.of(8, 1), false)).outcome());
        assertFalse(stored(k).tombstone());
    }

    @Test
    void aDeleteOfAnUncachedKeyIsRemembered() {
        CacheKey k = key("never-seen");
        ScnOrderedWriter w = writer(new InMemoryMetrics());
        assertEquals(
                WriteOutcome.APPLIED,
                w.write(k, KeyHistory.record(k, Version.of(9, 1), true)).outcome());
        assertEquals(
                WriteOutcome.STALE,
                w.write(k, KeyHistory.record(k, Version.of(4, 1), false)).outcome());
        assertTrue(stored(k).tombstone());
    }

    @Test
    void tombstonesExpireLikeAnyRecord() {
        CacheKey k = key("tomb-ttl");
        ScnOrderedWriter w =
                new ScnOrderedWriter(store(), WriterSettings.defaults().withTtl(shortTtl()), new InMemoryMetrics());
        w.write(k, KeyHistory.record(k, Version.of(3, 1), true));
        assertTrue(stored(k).tombstone());
        await().atMost(shortTtl().plusSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> store().get(k).isEmpty());
    }

    /**
     * Several writers race on the same keys, as the cache updater, the bootstrapper and read-repair
     * do: each version of a key reaches one or two of them, each sees its share scrambled. The
     * cache must end at the maximum version per key, with that version's bytes.
     */
    @Test
    void racingWritersConvergeOnTheMaximumVersion() throws Exception {
        race(raceKeys(), 3, 12);
    }

    /**
     * The same on a few hot keys with long histories, so that writers collide between read and
     * write all the time: a writer that compared versions but skipped compare-and-swap fails here.
     */
    @Test
    void racingWritersOnHotKeysConvergeOnTheMaximumVersion() throws Exception {
        race(3, hotKeyHistoryLength(), hotKeyHistoryLength() + 1);
    }

    /** History length per hot key; slow stores pick shorter ones. */
    protected int hotKeyHistoryLength() {
        return 150;
    }

    private void race(int keyCount, int minLength, int maxLength) throws Exception {
        long seed = Seeds.seed();
        Random random = new Random(seed);
        List<KeyHistory> histories = new ArrayList<>();
        for (int i = 0; i < keyCount; i++) {
            histories.add(
                    KeyHistory.random(key("k" + i), random, minLength + random.nextInt(maxLength - minLength), 0.2));
        }
        InMemoryMetrics metrics = new InMemoryMetrics();
        ScnOrderedWriter w = writer(metrics);
        CyclicBarrier start = new CyclicBarrier(raceThreads());
        List<Callable<Integer>> writers = new ArrayList<>();
        List<List<KeyHistory.Write>> shares = new ArrayList<>();
        for (int t = 0; t < raceThreads(); t++) {
            shares.add(new ArrayList<>());
        }
        for (KeyHistory h : histories) {
            for (CacheRecord r : h.commits()) {
                int first = random.nextInt(raceThreads());
                shares.get(first).add(new KeyHistory.Write(h.key(), r));
                if (random.nextInt(3) == 0) { // sometimes a second writer has the same version
                    shares.get((first + 1 + random.nextInt(raceThreads() - 1)) % raceThreads())
                            .add(new KeyHistory.Write(h.key(), r));
                }
            }
        }
        for (List<KeyHistory.Write> share : shares) {
            Collections.shuffle(share, random);
            writers.add(() -> {
                start.await();
                int failedWrites = 0;
                for (KeyHistory.Write write : share) {
                    if (w.write(write.key(), write.record()).outcome() == WriteOutcome.FAILED) {
                        failedWrites++;
                    }
                }
                return failedWrites;
            });
        }
        List<Integer> failures = runAll(writers);
        assertEquals(0, failures.stream().mapToInt(Integer::intValue).sum(), "writes failed; " + Seeds.replay(seed));
        for (KeyHistory h : histories) {
            CacheRecord expected = h.winner();
            CacheRecord actual = stored(h.key());
            String where = h.key() + " (" + h.commits().size() + " commits); " + Seeds.replay(seed);
            assertEquals(expected.version(), actual.version(), where);
            assertEquals(expected.tombstone(), actual.tombstone(), where);
            assertArrayEquals(expected.payload(), actual.payload(), where);
        }
        assertTrue(
                metrics.count("write.stale") + metrics.count("write.duplicate") > 0,
                "the race exercised nothing; " + Seeds.replay(seed));
    }

    private static <T> List<T> runAll(List<Callable<T>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            List<T> results = new ArrayList<>();
            for (Future<T> f : pool.invokeAll(tasks, 5, TimeUnit.MINUTES)) {
                results.add(f.get());
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
