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
package io.nearline.localcluster.sourcesimulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriteOutcome;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.schema.InMemorySchemaRegistry;
import io.nearline.common.store.CacheStore;
import io.nearline.common.testkit.ManualClock;
import io.nearline.common.testkit.Seeds;
import io.nearline.common.version.Version;
import io.nearline.jobs.checker.DivergenceChecker;
import io.nearline.jobs.checker.Row;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

class DivergenceCheckerTest {

    private static final Duration TTL = Duration.ofHours(1);

    /** A cache that keeps the same divergent keys is judged once they have settled, not at the deadline. */
    @Test
    void aSettledDivergenceIsJudgedBeforeTheDeadline() throws InterruptedException {
        CacheKey k = CacheKey.of("k");
        List<DivergenceChecker.Divergence> same =
                List.of(new DivergenceChecker.Divergence(k, DivergenceChecker.Kind.MISSING, Version.of(5, 1), null));
        long start = System.nanoTime();
        DivergenceChecker.Report settled = DivergenceChecker.checkUntilSettled(
                () -> new DivergenceChecker.Report(1, same, new long[0], new long[0]),
                start + TimeUnit.SECONDS.toNanos(30),
                Duration.ofMillis(20),
                Duration.ofMillis(300));
        assertEquals(1, settled.divergent().size());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "waited for the deadline");

        // the control: divergent keys that keep changing are waited on until the deadline
        long[] n = {0};
        start = System.nanoTime();
        DivergenceChecker.checkUntilSettled(
                () -> new DivergenceChecker.Report(
                        1,
                        List.of(new DivergenceChecker.Divergence(
                                k, DivergenceChecker.Kind.STALE, Version.of(5, 1), Version.of(++n[0], 1))),
                        new long[0],
                        new long[0]),
                start + TimeUnit.MILLISECONDS.toNanos(800),
                Duration.ofMillis(20),
                Duration.ofMillis(300));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(800), "judged while still changing");
    }

    @Test
    void everyKindIsRecognised() {
        CacheKey k = CacheKey.of("k");
        Row live = new Row(k, 0, Version.of(5, 1), false, new byte[] {1}, 0);
        Row deleted = new Row(k, 0, Version.of(5, 1), true, null, 0);
        CacheRecord same = CacheRecord.upsert(Version.of(5, 1), 0, new byte[] {1});
        CacheRecord older = CacheRecord.upsert(Version.of(4, 1), 0, new byte[] {9});
        CacheRecord newer = CacheRecord.upsert(Version.of(6, 1), 0, new byte[] {9});
        assertEquals(null, DivergenceChecker.classify(live, same));
        assertEquals(DivergenceChecker.Kind.MISSING, DivergenceChecker.classify(live, null));
        assertEquals(DivergenceChecker.Kind.STALE, DivergenceChecker.classify(live, older));
        assertEquals(
                DivergenceChecker.Kind.STALE,
                DivergenceChecker.classify(live, CacheRecord.tombstone(Version.of(4, 1), 0)));
        assertEquals(DivergenceChecker.Kind.AHEAD, DivergenceChecker.classify(live, newer));
        assertEquals(
                DivergenceChecker.Kind.CORRUPT,
                DivergenceChecker.classify(live, CacheRecord.upsert(Version.of(5, 1), 0, new byte[] {2})));
        assertEquals(null, DivergenceChecker.classify(deleted, null));
        assertEquals(null, DivergenceChecker.classify(deleted, CacheRecord.tombstone(Version.of(5, 1), 0)));
        assertEquals(null, DivergenceChecker.classify(deleted, CacheRecord.tombstone(Version.of(3, 1), 0)));
        assertEquals(DivergenceChecker.Kind.RESURRECTED, DivergenceChecker.classify(deleted, older));
        assertEquals(DivergenceChecker.Kind.EXTRA, DivergenceChecker.classify(null, same));
        assertEquals(null, DivergenceChecker.classify(null, CacheRecord.tombstone(Version.of(1, 1), 0)));
    }

    /**
     * The three writers of the production design race on one cache while the source commits: the
     * cache updater applies the change stream in order, a bootstrapper applies a snapshot taken
     * mid-run, read-repair writes back whatever a point read returns. After they drain, the cache
     * must equal the source of truth.
     */
    @Test
    void threeWritersRacingThroughTheOrderedWriteLeaveNoDivergence() throws Exception {
        long seed = Seeds.seed();
        InMemoryCacheStore cache = new InMemoryCacheStore();
        ScnOrderedWriter writer =
                new ScnOrderedWriter(cache, WriterSettings.defaults().withTtl(TTL), new InMemoryMetrics());
        Race race = race(
                seed,
                (key, record) -> {
                    if (writer.write(key, record).outcome() == WriteOutcome.FAILED) {
                        throw new AssertionError("write failed for " + key);
                    }
                },
                cache);
        DivergenceChecker.Report report =
                DivergenceChecker.check(race.sot, cache, Set.of(), System.currentTimeMillis());
        assertTrue(report.converged(), report.summary() + "\n" + Seeds.replay(seed));
        assertTrue(report.keysChecked() > 100);
    }

    /**
     * The checker is not blind: the same kind of race, where the bootstrapper writes its (older)
     * snapshot blindly once the stream has been applied, leaves keys behind, and the checker says which.
     */
    @Test
    void aWriterThatSkipsTheScnCheckIsCaught() throws Exception {
        long seed = Seeds.seed();
        // The control needs a snapshot older than the end of the stream. A race whose bootstrapper
        // thread was scheduled only after the source had finished snapshots the final state, which a
        // blind write cannot spoil: such a race is run again (a few times at most), it proves nothing.
        for (int attempt = 0; attempt < 5; attempt++) {
            InMemoryCacheStore cache = new InMemoryCacheStore();
            ScnOrderedWriter writer =
                    new ScnOrderedWriter(cache, WriterSettings.defaults().withTtl(TTL), new InMemoryMetrics());
            Race race = race(seed + attempt * 1_000_003L, (key, record) -> writer.write(key, record), cache);
            if (versions(race.snapshot).equals(versions(race.sot.snapshot()))) {
                continue;
            }
            // a test-only bootstrapper that puts whatever the snapshot holds
            for (Row row : race.snapshot.rows()) {
                cache.upsert(row.key(), CacheRecordCodec.encode(row.toCacheRecord()), TTL);
            }
            DivergenceChecker.Report report =
                    DivergenceChecker.check(race.sot, cache, Set.of(), System.currentTimeMillis());
            assertTrue(
                    report.count(DivergenceChecker.Kind.STALE) + report.count(DivergenceChecker.Kind.RESURRECTED) > 0,
                    "a blind bootstrap went unnoticed: " + report.summary() + "\n" + Seeds.replay(seed));
            assertTrue(report.scnLag().length > 0 || report.count(DivergenceChecker.Kind.RESURRECTED) > 0);
            return;
        }
        throw new AssertionError("five races in a row snapshotted the final state: " + Seeds.replay(seed));
    }

    /** Each key's version in a snapshot. */
    private static Map<CacheKey, Version> versions(Snapshot snapshot) {
        Map<CacheKey, Version> out = new HashMap<>();
        snapshot.rows().forEach(row -> out.put(row.key(), row.version()));
        return out;
    }

    @Test
    void extraKeysAreFoundWhereTheyAreLookedFor() {
        SourceOfTruth sot = new SourceOfTruth(2, new InMemorySchemaRegistry(), new ManualClock(), e -> {});
        CacheStore cache = new InMemoryCacheStore();
        CacheKey ghost = CacheKey.of("ghost");
        cache.upsert(ghost, CacheRecordCodec.encode(CacheRecord.upsert(Version.of(1, 1), 0, new byte[] {1})), TTL);
        assertEquals(1, DivergenceChecker.check(sot, cache, Set.of(ghost), 0).count(DivergenceChecker.Kind.EXTRA));
    }

    private record Race(SourceOfTruth sot, Snapshot snapshot) {}

    private static Race race(long seed, BiConsumer<CacheKey, CacheRecord> write, CacheStore cache) throws Exception {
        Random random = new Random(seed);
        BlockingQueue<ChangeEvent> stream = new LinkedBlockingQueue<>();
        SourceOfTruth sot = new SourceOfTruth(4, new InMemorySchemaRegistry(), new ManualClock(), stream::add);
        Workload workload = new Workload(300, 6000, 0.8, 0.15, 0.5, 0);
        AtomicBoolean committing = new AtomicBoolean(true);
        List<Snapshot> snapshot = Collections.synchronizedList(new ArrayList<>());

        Thread source = new Thread(
                () -> {
                    Random r = new Random(seed + 1);
                    workload.run(sot, r, Duration.ofMinutes(1));
                    committing.set(false);
                },
                "source");
        InMemoryMetrics readMetrics = new InMemoryMetrics();
        ScnOrderedWriter repairWriter =
                new ScnOrderedWriter(cache, WriterSettings.defaults().withTtl(TTL), new InMemoryMetrics());
        ReadRepair reader =
                new ReadRepair(sot, cache, repairWriter, Duration.ofMillis(1), Clock.systemUTC(), readMetrics);
        Thread updater = new Thread(
                () -> {
                    try {
                        // three writers for sure: the updater starts once read-repair has written (a cache that
                        // lags the source is what it repairs), or after 10 s at the most
                        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                        while (readMetrics.count("read.repaired") == 0 && System.nanoTime() < until) {
                            Thread.onSpinWait();
                        }
                        while (committing.get() || !stream.isEmpty()) {
                            ChangeEvent e = stream.poll(10, TimeUnit.MILLISECONDS);
                            if (e != null) {
                                write.accept(ChangeEvents.cacheKey(e), ChangeEvents.cacheRecord(e));
                            }
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "updater");
        Thread bootstrapper = new Thread(
                () -> {
                    while (committing.get() && sot.keys().size() < 100) {
                        Thread.onSpinWait();
                    }
                    Snapshot s = sot.snapshot();
                    snapshot.add(s);
                    List<Row> rows = new ArrayList<>(s.rows());
                    Collections.shuffle(rows, new Random(seed + 2));
                    rows.forEach(row -> write.accept(row.key(), row.toCacheRecord()));
                },
                "bootstrapper");
        Thread readRepair = new Thread(
                () -> {
                    Random r = new Random(seed + 3);
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    // on while the source commits, and at least until its first repair (a fast source may be done
                    // before this thread has read anything)
                    while (committing.get() || (readMetrics.count("read.repaired") == 0 && System.nanoTime() < until)) {
                        reader.read(Workload.key(r.nextInt(workload.keys())));
                    }
                },
                "read-repair");
        for (Thread t : List.of(source, updater, bootstrapper, readRepair)) {
            t.start();
        }
        for (Thread t : List.of(source, updater, bootstrapper, readRepair)) {
            t.join(60_000);
        }
        assertTrue(
                readMetrics.count("read.repaired") > 0, "read-repair never wrote: the race had two writers, not three");
        return new Race(sot, snapshot.get(0));
    }
}
