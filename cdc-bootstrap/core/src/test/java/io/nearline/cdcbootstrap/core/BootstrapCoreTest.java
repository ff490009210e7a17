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
package io.nearline.cdcbootstrap.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.bootstrap.avro.BootstrapKind;
import io.nearline.bootstrap.avro.BootstrapRecord;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import io.nearline.common.testkit.ChangeEventGenerator;
import io.nearline.common.testkit.ConfigDocsCheck;
import io.nearline.common.testkit.EngineNeutrality;
import io.nearline.common.testkit.Seeds;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BootstrapCoreTest {

    private static BootstrapRecord marker(BootstrapKind kind, long rows) {
        return BootstrapRecord.newBuilder()
                .setSnapshotId("s1")
                .setKind(kind)
                .setTopicPartition(0)
                .setPartitionRows(rows)
                .setAtMillis(0)
                .build();
    }

    private static BootstrapRecord row(long sequence) {
        return BootstrapRecord.newBuilder()
                .setSnapshotId("s1")
                .setKind(BootstrapKind.ROW)
                .setTopicPartition(0)
                .setSequence(sequence)
                .setAtMillis(0)
                .build();
    }

    @Test
    void aShareIsCompleteWhenEveryRowAndTheEndWereSeenRepeatsCountingOnce() {
        BootstrapTracker tracker = new BootstrapTracker();
        assertEquals(BootstrapTracker.Change.NONE, tracker.onRecord(marker(BootstrapKind.BEGIN, 3), 0));
        assertEquals(BootstrapTracker.Change.PROGRESS, tracker.onRecord(row(0), 500));
        tracker.onRecord(row(1), 1000);
        assertEquals(BootstrapTracker.Change.NONE, tracker.onRecord(row(1), 1000), "a resumed producer's repeat");
        assertEquals(66.7, tracker.share("s1", 0).percent(), 0.1);
        assertEquals(2.0, tracker.share("s1", 0).rowsPerSecond(), 0.01);
        tracker.onRecord(row(2));
        assertEquals(BootstrapTracker.Change.COMPLETE, tracker.onRecord(marker(BootstrapKind.END, 3)));
        assertEquals(3, tracker.share("s1", 0).rowsSeen());
    }

    /**
     * A task killed at any record and restored from the state it kept goes on counting as if it had not
     * been killed: rows in any order with repeats, cut at a random point, restored into a new tracker.
     */
    @Test
    void aShareRestoredFromItsStateGoesOnCountingAsIfNeverStopped() {
        Random random = new Random(Seeds.seed());
        for (int trial = 0; trial < 200; trial++) {
            int rows = 1 + random.nextInt(300);
            List<BootstrapRecord> records = new ArrayList<>();
            records.add(marker(BootstrapKind.BEGIN, rows));
            List<Integer> order = new ArrayList<>();
            for (int s = 0; s < rows; s++) {
                order.add(s);
                if (random.nextInt(10) == 0) {
                    order.add(s); // a resumed producer's repeat
                }
            }
            if (random.nextBoolean()) {
                Collections.shuffle(order, random);
            }
            boolean dropOne = random.nextInt(4) == 0;
            order.subList(0, dropOne ? 1 : 0).clear();
            order.forEach(s -> records.add(row(s)));
            records.add(marker(BootstrapKind.END, rows));

            int cut = random.nextInt(records.size() + 1);
            BootstrapTracker before = new BootstrapTracker();
            records.subList(0, cut).forEach(before::onRecord);
            BootstrapTracker after = new BootstrapTracker();
            byte[] state = before.state("s1/0");
            boolean completeAtRestore = state != null && after.restore("s1/0", state);
            List<BootstrapTracker.Change> changes = new ArrayList<>();
            records.subList(cut, records.size()).forEach(r -> changes.add(after.onRecord(r)));

            boolean complete = new HashSet<>(order).size() == rows; // the dropped row may have had a repeat
            assertEquals(complete, after.share("s1", 0).complete(), "trial " + trial + " cut at " + cut);
            long reported = changes.stream()
                            .filter(c -> c == BootstrapTracker.Change.COMPLETE)
                            .count()
                    + (completeAtRestore ? 1 : 0);
            assertEquals(complete ? 1 : 0, reported, "completion reported once, trial " + trial);
        }
    }

    @Test
    void statesOfOneShareMergeAndStaySmallForRowsInOrder() {
        BootstrapTracker a = new BootstrapTracker();
        BootstrapTracker b = new BootstrapTracker();
        a.onRecord(marker(BootstrapKind.BEGIN, 10_000));
        b.onRecord(marker(BootstrapKind.BEGIN, 10_000));
        for (int s = 0; s < 10_000; s++) {
            (s < 6_000 ? a : b).onRecord(row(s));
        }
        b.onRecord(marker(BootstrapKind.END, 10_000));
        assertTrue(a.state("s1/0").length < 32, "in order, the rows seen are one count");
        BootstrapTracker merged = new BootstrapTracker();
        assertEquals(false, merged.restore("s1/0", a.state("s1/0")));
        assertTrue(merged.restore("s1/0", b.state("s1/0")), "the union of both is every row, and the end");
        assertEquals(10_000, merged.share("s1", 0).rowsSeen());
        // two tasks' states both complete (union state after a second restore): complete once
        assertEquals(false, merged.restore("s1/0", b.state("s1/0")), "a share complete already is not again");
        byte[] unknown = a.state("s1/0");
        unknown[0] = 99;
        assertThrows(IllegalArgumentException.class, () -> merged.restore("s1/0", unknown));
    }

    @Test
    void anEndWithRowsMissingIsReported() {
        BootstrapTracker tracker = new BootstrapTracker();
        tracker.onRecord(marker(BootstrapKind.BEGIN, 2));
        tracker.onRecord(row(1));
        assertEquals(BootstrapTracker.Change.INCOMPLETE_AT_END, tracker.onRecord(marker(BootstrapKind.END, 2)));
    }

    @Test
    void recordsRoundTripAndGarbageIsRecognised() {
        BootstrapRecord r = row(7);
        assertEquals(r, BootstrapCodec.decodeOrNull(BootstrapCodec.encode(r)));
        assertNull(BootstrapCodec.decodeOrNull("not a record".getBytes()));
    }

    @Test
    void aPeriodNotShorterThanTheTtlFailsNamingBothKeys() {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> BootstrapSettings.from(Config.of(Map.of("bootstrap.period", "7d", "cache.ttl", "7d"))));
        assertTrue(e.getMessage().contains("bootstrap.period") && e.getMessage().contains("cache.ttl"), e.getMessage());
        assertEquals(Duration.ofDays(1), BootstrapSettings.from(Config.empty()).period());
        // a table's own TTL counts as well: its records must be rewritten before they expire
        ConfigException table = assertThrows(
                ConfigException.class,
                () -> BootstrapSettings.from(
                        Config.of(Map.of("bootstrap.period", "1d", "cdc.debezium.table.public.orders.ttl", "12h"))));
        assertTrue(table.getMessage().contains("cdc.debezium.table.<table>.ttl"), table.getMessage());
    }

    @Test
    void theScheduleShowsDueAndOverdue() {
        BootstrapSchedule schedule = new BootstrapSchedule(Duration.ofHours(24), Duration.ofDays(7));
        Instant t0 = Instant.parse("2026-11-01T00:00:00Z");
        Instant done = t0.plus(Duration.ofHours(2));
        assertEquals(BootstrapSchedule.State.NEVER_RUN, schedule.state(null, null, t0));
        assertEquals(BootstrapSchedule.State.OK, schedule.state(t0, done, t0.plus(Duration.ofHours(20))));
        assertEquals(BootstrapSchedule.State.DUE, schedule.state(t0, done, t0.plus(Duration.ofHours(25))));
        assertEquals(BootstrapSchedule.State.OVERDUE, schedule.state(t0, done, done.plus(Duration.ofHours(24))));
        assertEquals(Duration.ofDays(6), schedule.marginBeforeExpiry(done, done.plus(Duration.ofDays(1))));
        assertThrows(
                IllegalArgumentException.class, () -> new BootstrapSchedule(Duration.ofDays(8), Duration.ofDays(7)));
    }

    @Test
    void snapshotsReadTheSameFromJsonLinesAndAvroFiles(@TempDir Path dir) {
        Path json = dir.resolve("s.jsonl");
        ChangeEventGenerator.writeSnapshot(json, 50);
        SnapshotRows fromJson = SnapshotRows.read(json);
        SnapshotRows named = new SnapshotRows("snap-7", fromJson.highWatermarks(), fromJson.rows());
        named.writeAvro(dir.resolve("s.avro"));
        named.write(dir.resolve("t.jsonl"));
        assertEquals(named, SnapshotRows.read(dir.resolve("s.avro")));
        assertEquals(named, SnapshotRows.read(dir.resolve("t.jsonl")));
        IllegalArgumentException above = assertThrows(
                IllegalArgumentException.class, () -> new SnapshotRows("x", Map.of(0, 0L), fromJson.rows()));
        assertTrue(above.getMessage().contains("high-watermark"), above.getMessage());
    }

    @Test
    void docsListEveryKey() {
        ConfigDocsCheck.assertInSync("cdc-bootstrap", BootstrapSettings.DEF);
    }

    @Test
    void theBootstrapKnowsNoEngine() {
        EngineNeutrality.check("io.nearline.cdcbootstrap.core");
    }
}
