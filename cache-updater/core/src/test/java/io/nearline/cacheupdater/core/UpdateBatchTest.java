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
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.testkit.FaultyCacheStore;
import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.cacheupdater.core.testkit.KeyHistory;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.cache.ConsistentThroughEntry;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.events.Rejection;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.version.Version;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class UpdateBatchTest {

    private final InMemoryCacheStore memory = new InMemoryCacheStore();
    private final FaultyCacheStore store = new FaultyCacheStore(memory);
    private final InMemoryMetrics metrics = new InMemoryMetrics();
    private final ScnOrderedWriter writer = new ScnOrderedWriter(
            store,
            new WriterSettings(Duration.ofHours(1), 3, new Backoff(Duration.ZERO, Duration.ZERO)),
            metrics,
            Clock.systemUTC(),
            d -> {},
            new Random(1));
    private final UpdateBatch batch = new UpdateBatch(writer, metrics, Duration.ofMillis(50), 4);

    @AfterEach
    void stop() {
        batch.close();
    }

    /** A change event of table {@code t}, committed {@code agoMillis} before now. */
    private static ChangeEvent event(CacheKey key, long scn, long agoMillis) {
        return ChangeEvent.newBuilder()
                .setTable("t")
                .setKey(key.value())
                .setPartition(1)
                .setScn(scn)
                .setOp(Op.UPSERT)
                .setSchemaVersion(1)
                .setCommitTimeMillis(System.currentTimeMillis() - agoMillis)
                .build();
    }

    private static UpdateBatch.Pending change(CacheKey key, long scn) {
        return UpdateBatch.Pending.of(
                event(key, scn, 0),
                KeyHistory.record(key, Version.of(scn, 1), false),
                new SourceRecord("test", "t", 0, scn, null, null),
                false);
    }

    private Version stored(CacheKey key) {
        return CacheRecordCodec.decode(memory.get(key).orElseThrow().value()).version();
    }

    @Test
    void keepsTheNewestVersionPerKeyAndCountsTheRest() throws Exception {
        CacheKey a = CacheKey.of("a");
        CacheKey b = CacheKey.of("b");
        batch.add(a, change(a, 5));
        batch.add(a, change(a, 9));
        batch.add(a, change(a, 7));
        batch.add(b, change(b, 1));
        assertEquals(2, batch.size());
        assertEquals(List.of(), batch.flush());
        assertTrue(batch.isEmpty());
        assertEquals(Version.of(9, 1), stored(a));
        assertEquals(Version.of(1, 1), stored(b));
        assertEquals(4, metrics.count(UpdateBatch.WRITTEN), "every change added is done once the flush returns");
        assertEquals(2, metrics.count("write.superseded"));
        assertEquals(2, metrics.count("write.applied"));
    }

    @Test
    void aWrittenCutMovesTheFreshnessHistogramAndItsPartitionsWatermark() throws Exception {
        CacheKey a = CacheKey.of("a");
        ChangeEvent older = event(a, 5, 2_000);
        batch.add(a, UpdateBatch.Pending.of(older, KeyHistory.record(a, Version.of(5, 1), false), source(3), false));
        ChangeEvent newer = event(a, 6, 2_000);
        batch.add(a, UpdateBatch.Pending.of(newer, KeyHistory.record(a, Version.of(6, 1), false), source(3), false));
        String series = "{table=t,partition=3";
        assertEquals(0, metrics.gaugeValue("consistent-through" + series + "}").orElseThrow(), "nothing durable yet");
        assertEquals(List.of(), batch.flush());
        assertEquals(
                newer.getCommitTimeMillis(),
                metrics.gaugeValue("consistent-through" + series + "}").orElseThrow());
        assertEquals(2, metrics.count("freshness.count" + series + "}"), "the superseded change is settled too");
        assertEquals(0, metrics.count("freshness.bucket" + series + ",le=1}"), "two seconds old");
        assertEquals(2, metrics.count("freshness.bucket" + series + ",le=5}"));
        assertEquals(2, metrics.count("freshness.bucket" + series + ",le=+Inf}"));
        assertTrue(metrics.count("freshness.sum-ms" + series + "}") >= 4_000);
        assertEquals(1, metrics.count("table.writes{table=t,outcome=applied}"));
        assertEquals(1, metrics.count("table.writes{table=t,outcome=superseded}"));
    }

    @Test
    void withoutFreshnessMetricsOnlyTheJobWideCountersAreKept() throws Exception {
        InMemoryMetrics plain = new InMemoryMetrics();
        try (UpdateBatch without = new UpdateBatch(
                new ScnOrderedWriter(memory, WriterSettings.defaults(), plain),
                plain,
                Duration.ofMillis(50),
                1,
                UpdateBatch.MAX_IN_FLIGHT,
                false)) {
            CacheKey a = CacheKey.of("a");
            without.add(
                    a,
                    UpdateBatch.Pending.of(
                            event(a, 5, 2_000), KeyHistory.record(a, Version.of(5, 1), false), source(3), false));
            assertEquals(List.of(), without.flush());
        }
        assertEquals(1, plain.count(UpdateBatch.WRITTEN));
        assertEquals(1, plain.count("write.applied"));
        assertEquals(
                List.of(),
                plain.snapshot().keySet().stream().filter(Metrics::isLabelled).toList(),
                "no labelled series");
        assertEquals(List.of(), List.copyOf(plain.gaugeNames()), "no consistent-through");
    }

    /**
     * Each table's and partition's consistent-through reaches the store, as readers see it, one entry per
     * writing task; a change that arrives with an older commit never moves a task's entry back.
     */
    @Test
    void publishesEachTasksConsistentThroughBesideTheDataAndNeverMovesItBack() throws Exception {
        String prefix = ConsistentThroughEntry.DEFAULT_KEY_PREFIX;
        try (UpdateBatch one = new UpdateBatch(writer, metrics, Duration.ofMillis(50), 4)
                        .publishingThrough(prefix, Duration.ZERO, metrics);
                UpdateBatch other = new UpdateBatch(writer, metrics, Duration.ofMillis(50), 4)
                        .publishingThrough(prefix, Duration.ZERO, metrics)) {
            CacheKey a = CacheKey.of("a");
            ChangeEvent newer = event(a, 9, 1_000);
            one.add(a, UpdateBatch.Pending.of(newer, KeyHistory.record(a, Version.of(9, 1), false), source(3), false));
            assertEquals(List.of(), one.flush());
            List<ConsistentThroughEntry> published = entries(prefix);
            assertEquals(1, published.size());
            assertEquals(9, published.get(0).version().scn().value());
            assertEquals(newer.getCommitTimeMillis(), published.get(0).commitTimeMillis());
            assertEquals(3, published.get(0).partition());

            CacheKey b = CacheKey.of("b");
            one.add(
                    b,
                    UpdateBatch.Pending.of(
                            event(b, 4, 5_000), KeyHistory.record(b, Version.of(4, 1), false), source(3), false));
            assertEquals(List.of(), one.flush());
            assertEquals(
                    9, entries(prefix).get(0).version().scn().value(), "an older change counts at the newest seen");

            other.add(
                    b,
                    UpdateBatch.Pending.of(
                            event(b, 5, 5_000), KeyHistory.record(b, Version.of(5, 1), false), source(3), false));
            assertEquals(List.of(), other.flush());
            assertEquals(
                    List.of(5L, 9L),
                    entries(prefix).stream()
                            .map(e -> e.version().scn().value())
                            .sorted()
                            .toList(),
                    "each task its own entry: a reader takes the oldest");
            assertEquals(0, metrics.count("write.refreshed"), "the entries are not counted as the job's writes");
        }
    }

    private List<ConsistentThroughEntry> entries(String prefix) {
        return memory.scanKeys(ConsistentThroughEntry.tablePrefix(prefix, "t"), null, 100).keys().stream()
                .map(k -> ConsistentThroughEntry.of(
                        CacheRecordCodec.decode(memory.get(k).orElseThrow().value())))
                .toList();
    }

    private static SourceRecord source(int partition) {
        return new SourceRecord("test", "t", partition, 0, null, null);
    }

    /**
     * A row with an uncaptured column supersedes, in the batch, the row it changed: it takes the column
     * from that row, which never reaches the store. One with nothing to complete it is refused as
     * PARTIAL_IMAGE.
     */
    @Test
    void aPartialRowIsCompletedFromTheRowItSupersedesInTheBatch() throws Exception {
        CacheKey a = CacheKey.of("a");
        batch.add(a, row(a, 5, "{\"id\":1,\"bio\":\"long text\",\"n\":1}"));
        batch.add(a, row(a, 6, "{\"id\":1,\"bio\":\"__debezium_unavailable_value\",\"n\":2}"));
        CacheKey b = CacheKey.of("b");
        batch.add(b, row(b, 6, "{\"id\":2,\"bio\":\"__debezium_unavailable_value\",\"n\":2}"));
        List<UpdateBatch.Refused> refused = batch.flush();
        assertEquals(
                "{\"id\":1,\"bio\":\"long text\",\"n\":2}",
                new String(
                        CacheRecordCodec.decode(memory.get(a).orElseThrow().value())
                                .payload(),
                        StandardCharsets.UTF_8));
        assertEquals(1, refused.size());
        assertEquals(Rejection.Reason.PARTIAL_IMAGE, refused.get(0).rejection().reason());
        assertTrue(memory.get(b).isEmpty());
    }

    private static UpdateBatch.Pending row(CacheKey key, long scn, String json) {
        return UpdateBatch.Pending.of(
                event(key, scn, 0),
                CacheRecord.upsert(Version.of(scn, 1), 0, json.getBytes(StandardCharsets.UTF_8)),
                new SourceRecord("test", "t", 0, scn, null, null),
                false);
    }

    @Test
    void aCutIsWrittenApartFromWhatIsAddedAfterIt() throws Exception {
        CacheKey a = CacheKey.of("a");
        batch.add(a, change(a, 5));
        UpdateBatch.Cut first = batch.cut();
        assertTrue(batch.isEmpty(), "a cut empties the batch");
        batch.add(a, change(a, 9)); // the next batch fills while the cut waits to be written
        batch.add(a, change(a, 10));
        assertEquals(0, metrics.count(UpdateBatch.WRITTEN), "nothing is done before it is written");
        assertEquals(List.of(), batch.write(first));
        assertEquals(Version.of(5, 1), stored(a));
        assertEquals(1, metrics.count(UpdateBatch.WRITTEN), "only the cut's change is done");
        UpdateBatch.Cut second = batch.cut();
        assertEquals(1, second.changes().size());
        assertEquals(2, second.events());
        assertEquals(List.of(), batch.write(second));
        assertEquals(Version.of(10, 1), stored(a));
        assertEquals(3, metrics.count(UpdateBatch.WRITTEN));
    }

    @Test
    void anOutageLongerThanTheRetryBudgetIsWaitedOutNotDropped() throws Exception {
        CacheKey a = CacheKey.of("a");
        batch.add(a, change(a, 5));
        store.failNext(7); // more than write.max-attempts (3): the first flush round fails, later ones succeed
        assertEquals(List.of(), batch.flush());
        assertEquals(Version.of(5, 1), stored(a));
        assertTrue(metrics.count("write.failed") >= 1);
    }

    @Test
    void whileTheStoreIsUnhealthyOneWriteProbesItBeforeTheRestFollow() throws Exception {
        List<CacheKey> keys = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            keys.add(CacheKey.of("k" + i));
            batch.add(keys.get(i), change(keys.get(i), 5));
        }
        // unhealthy while failures are pending; each write takes up to write.max-attempts (3) of them
        store.failNext(7);
        assertEquals(List.of(), batch.flush());
        for (CacheKey key : keys) {
            assertEquals(Version.of(5, 1), stored(key));
        }
        // two probes ran out of attempts (6 failures); the third got through and the other nine followed
        assertEquals(
                Set.of(keys.get(0)),
                Set.copyOf(store.failedKeys()),
                "only the probe is sent while the store is down: " + store.failedKeys());
        assertEquals(10, metrics.count("write.applied"));
    }

    @Test
    void whatTheStoreRefusesForGoodIsReturnedForDeadLettering() throws Exception {
        CacheKey a = CacheKey.of("a");
        memory.upsert(a, new byte[] {0x7f, 0}, Duration.ofHours(1)); // bytes no reader understands
        batch.add(a, change(a, 5));
        List<UpdateBatch.Refused> refused = batch.flush();
        assertEquals(1, refused.size());
        assertEquals(Rejection.Reason.STORE_REJECTED, refused.get(0).rejection().reason());
        CacheRecord untouched = null;
        assertEquals(2, memory.get(a).orElseThrow().value().length, String.valueOf(untouched));
    }
}
