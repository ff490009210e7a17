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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.bootstrap.avro.BootstrapKind;
import io.nearline.bootstrap.avro.BootstrapRecord;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.events.ChangeEventCodec;
import io.nearline.common.events.ChangeEventValidator;
import io.nearline.common.events.Rejection;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.testkit.ChangeEventGenerator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What the bootstrapper makes of each record of the bootstrap topic, the same on every engine: rows,
 * markers and what it refuses (with the reason the dead letter carries), the counters it keeps, and a
 * share's progress carried across a restart.
 */
class BootstrapIntakeTest {

    private final InMemoryMetrics metrics = new InMemoryMetrics();
    private final BootstrapIntake intake = new BootstrapIntake(new ChangeEventValidator(64, null), metrics);

    private static byte[] marker(String snapshot, int partition, BootstrapKind kind, long rows) {
        return BootstrapCodec.encode(BootstrapRecord.newBuilder()
                .setSnapshotId(snapshot)
                .setKind(kind)
                .setTopicPartition(partition)
                .setPartitionRows(rows)
                .setAtMillis(0)
                .build());
    }

    private static byte[] row(String snapshot, int partition, long sequence, byte[] changeEvent) {
        return BootstrapCodec.encode(BootstrapRecord.newBuilder()
                .setSnapshotId(snapshot)
                .setKind(BootstrapKind.ROW)
                .setTopicPartition(partition)
                .setSequence(sequence)
                .setRow(changeEvent == null ? null : ByteBuffer.wrap(changeEvent))
                .setAtMillis(0)
                .build());
    }

    private static byte[] change(String key, long scn) {
        return ChangeEventCodec.encode(ChangeEventGenerator.event(key, 0, scn, false));
    }

    private long count(String name) {
        return metrics.count(name);
    }

    @Test
    void aRowIsItsChangeEventWithItsOwnBytesAndItsShare() {
        byte[] bytes = change("k1", 7);
        BootstrapIntake.Taken taken = intake.take(row("s1", 2, 0, bytes));
        BootstrapIntake.Row row = assertInstanceOf(BootstrapIntake.Row.class, taken);
        ChangeEvent event = row.event();
        assertEquals("k1", event.getKey().toString());
        assertEquals(7, event.getScn());
        assertArrayEquals(bytes, row.rowBytes(), "the row is written as it came, not re-encoded");
        assertEquals("s1/2", row.share());
        assertEquals(1, count("bootstrap.records"));
        assertEquals(1, count("bootstrap.rows"));
        assertEquals(0, count("bootstrap.invalid"));
    }

    @Test
    void markersAreTrackedPerSnapshotAndPartition() {
        BootstrapIntake.Marker begin =
                assertInstanceOf(BootstrapIntake.Marker.class, intake.take(marker("s1", 0, BootstrapKind.BEGIN, 1)));
        assertEquals("s1/0", begin.share());
        intake.take(marker("s2", 1, BootstrapKind.BEGIN, 5));
        assertEquals(Set.of("s1/0", "s2/1"), intake.shares());
        assertEquals(2, count("bootstrap.markers"));
        assertEquals(0, count("bootstrap.rows"));
    }

    @Test
    void whatIsNotABootstrapRowIsRefusedWithItsReasonAndCountedApart() {
        Rejection garbage = assertInstanceOf(
                        BootstrapIntake.Rejected.class, intake.take("not avro".getBytes(StandardCharsets.UTF_8)))
                .rejection();
        assertEquals(Rejection.Reason.UNDECODABLE, garbage.reason());
        assertTrue(garbage.detail().contains("not a bootstrap record"), garbage.detail());

        Rejection empty = assertInstanceOf(BootstrapIntake.Rejected.class, intake.take(null))
                .rejection();
        assertEquals(Rejection.Reason.UNDECODABLE, empty.reason());

        Rejection noRow = assertInstanceOf(BootstrapIntake.Rejected.class, intake.take(row("s1", 0, 0, null)))
                .rejection();
        assertTrue(noRow.detail().contains("without a row"), noRow.detail());

        Rejection badRow = assertInstanceOf(
                        BootstrapIntake.Rejected.class, intake.take(row("s1", 0, 1, new byte[] {1, 2, 3})))
                .rejection();
        assertEquals(Rejection.Reason.UNDECODABLE, badRow.reason());

        // a change event the cache updater would refuse is refused here too, by the same validator
        byte[] tooLarge = ChangeEventCodec.encode(ChangeEvent.newBuilder(ChangeEventGenerator.event("k", 0, 1, false))
                .setPayload(ByteBuffer.wrap(new byte[65]))
                .build());
        Rejection large = assertInstanceOf(BootstrapIntake.Rejected.class, intake.take(row("s1", 0, 2, tooLarge)))
                .rejection();
        assertEquals(Rejection.Reason.OVERSIZED_PAYLOAD, large.reason());

        assertEquals(5, count("bootstrap.records"));
        assertEquals(5, count("bootstrap.invalid"));
        assertEquals(0, count("bootstrap.rows"));
        assertNull(intake.progress("s1/0"), "a refused record does not count toward its share");
    }

    @Test
    void aShareCompletesOnceItsRowsAndItsEndAreInAndAnIncompleteEndIsCounted() {
        intake.take(marker("s1", 0, BootstrapKind.BEGIN, 2));
        intake.take(row("s1", 0, 0, change("a", 1)));
        intake.take(row("s1", 0, 1, change("b", 1)));
        intake.take(row("s1", 0, 1, change("b", 1))); // a resumed producer's repeat
        intake.take(marker("s1", 0, BootstrapKind.END, 2));
        assertEquals(1, count("bootstrap.partitions-complete"));

        intake.take(marker("s1", 1, BootstrapKind.BEGIN, 3));
        intake.take(row("s1", 1, 0, change("c", 1)));
        intake.take(marker("s1", 1, BootstrapKind.END, 3));
        assertEquals(1, count("bootstrap.partitions-complete"));
        assertEquals(1, count("bootstrap.partitions-incomplete"));
    }

    @Test
    void progressKeptAtARestartGoesOnCountingAndACompleteShareCountsOnceWhereItShould() {
        intake.take(marker("s1", 0, BootstrapKind.BEGIN, 2));
        intake.take(row("s1", 0, 0, change("a", 1)));
        byte[] halfway = intake.progress("s1/0");

        InMemoryMetrics afterMetrics = new InMemoryMetrics();
        BootstrapIntake after = new BootstrapIntake(new ChangeEventValidator(64, null), afterMetrics);
        after.restore("s1/0", halfway);
        assertEquals(0, afterMetrics.count("bootstrap.partitions-complete"), "not complete yet");
        after.take(row("s1", 0, 1, change("b", 1)));
        after.take(marker("s1", 0, BootstrapKind.END, 2));
        assertEquals(1, afterMetrics.count("bootstrap.partitions-complete"));

        byte[] complete = after.progress("s1/0");
        InMemoryMetrics countingMetrics = new InMemoryMetrics();
        BootstrapIntake counting = new BootstrapIntake(new ChangeEventValidator(64, null), countingMetrics);
        counting.restore("s1/0", complete);
        assertEquals(1, countingMetrics.count("bootstrap.partitions-complete"), "counted by this task");

        InMemoryMetrics otherMetrics = new InMemoryMetrics();
        BootstrapIntake other = new BootstrapIntake(new ChangeEventValidator(64, null), otherMetrics);
        other.restore("s1/0", complete, false);
        assertEquals(Set.of("s1/0"), other.shares(), "known");
        assertEquals(0, otherMetrics.count("bootstrap.partitions-complete"), "counted by another task");
    }
}
