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

import io.nearline.bootstrap.avro.BootstrapKind;
import io.nearline.bootstrap.avro.BootstrapRecord;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.events.ChangeEventCodec;
import io.nearline.common.events.ChangeEventValidator;
import io.nearline.common.events.Decoded;
import io.nearline.common.events.Rejection;
import io.nearline.common.metrics.Metrics;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the bootstrapper takes in each record of the bootstrap topic, on every engine: a row (a valid
 * change event, to be written with its TTL refreshed), a marker (fed to the completeness tracker),
 * or a rejection (to be dead-lettered with the whole record). Logs each partition's progress every
 * 10 %, its completion, and a partition that ended with rows missing; counts {@code bootstrap.*}.
 * One per task: it sees each bootstrap-topic partition whole and in order. What it counted survives a
 * restart when the task keeps {@link #progress} of each share a record names with its input positions
 * and gives it back with {@link #restore}.
 */
public final class BootstrapIntake {

    /** What a bootstrap record turned out to be. */
    public sealed interface Taken permits Row, Marker, Rejected {}

    /** A row to write: the change event and its own Avro bytes; {@code share} names its snapshot and partition. */
    public record Row(ChangeEvent event, byte[] rowBytes, String share) implements Taken {}

    /** A BEGIN or END marker, tracked in {@code share}. */
    public record Marker(String share) implements Taken {}

    public record Rejected(Rejection rejection) implements Taken {}

    private static final Logger LOG = LoggerFactory.getLogger(BootstrapIntake.class);

    private final BootstrapTracker tracker = new BootstrapTracker();
    private final ChangeEventValidator validator;
    private final Metrics.Counter records;
    private final Metrics.Counter rows;
    private final Metrics.Counter markers;
    private final Metrics.Counter invalid;
    private final Metrics.Counter complete;
    private final Metrics.Counter incomplete;

    /** @param validator checks each row as the cache updater checks a change event */
    public BootstrapIntake(ChangeEventValidator validator, Metrics metrics) {
        this.validator = validator;
        this.records = metrics.counter("bootstrap.records");
        this.rows = metrics.counter("bootstrap.rows");
        this.markers = metrics.counter("bootstrap.markers");
        this.invalid = metrics.counter("bootstrap.invalid");
        this.complete = metrics.counter("bootstrap.partitions-complete");
        this.incomplete = metrics.counter("bootstrap.partitions-incomplete");
    }

    public Taken take(byte[] value) {
        records.inc();
        BootstrapRecord r = BootstrapCodec.decodeOrNull(value);
        Taken taken = classify(r);
        if (taken instanceof Rejected) {
            invalid.inc();
            return taken;
        }
        (taken instanceof Row ? rows : markers).inc();
        track(r);
        return taken;
    }

    private Taken classify(BootstrapRecord r) {
        if (r == null) {
            return new Rejected(Rejection.of(Rejection.Reason.UNDECODABLE, "not a bootstrap record"));
        }
        if (r.getKind() != BootstrapKind.ROW) {
            return new Marker(BootstrapTracker.key(r));
        }
        byte[] row = BootstrapCodec.rowBytes(r);
        if (row == null) {
            return new Rejected(Rejection.of(Rejection.Reason.UNDECODABLE, "a ROW without a row"));
        }
        Decoded decoded = ChangeEventCodec.decode(row);
        Rejection rejection = decoded.ok() ? validator.check(decoded.event()) : decoded.rejection();
        return rejection == null ? new Row(decoded.event(), row, BootstrapTracker.key(r)) : new Rejected(rejection);
    }

    /** What is known of a share (the rows seen, the count announced), as bytes to keep; null if never seen. */
    public byte[] progress(String share) {
        return tracker.state(share);
    }

    /** Every share seen or restored. */
    public Set<String> shares() {
        return tracker.keys();
    }

    /**
     * After a restart: takes back a share's {@link #progress} as it was at the input positions the
     * task resumes from. A share complete by then counts as complete in this process, once.
     */
    public void restore(String share, byte[] progress) {
        restore(share, progress, true);
    }

    /**
     * As above; with {@code countsComplete} false a share complete by then is known, but counted by
     * another task (where every task restores every share, one of them counts).
     */
    public void restore(String share, byte[] progress, boolean countsComplete) {
        if (tracker.restore(share, progress) && countsComplete) {
            complete.inc();
            LOG.info("bootstrap {}: complete (restored)", share);
        }
    }

    private void track(BootstrapRecord r) {
        BootstrapTracker.Change change = tracker.onRecord(r);
        if (change == BootstrapTracker.Change.NONE) {
            return;
        }
        BootstrapTracker.Share s = tracker.share(r.getSnapshotId(), r.getTopicPartition());
        switch (change) {
            case COMPLETE -> {
                complete.inc();
                LOG.info(
                        "bootstrap {}: partition {} complete, {} rows",
                        r.getSnapshotId(),
                        r.getTopicPartition(),
                        s.rowsSeen());
            }
            case INCOMPLETE_AT_END -> {
                incomplete.inc();
                LOG.error(
                        "bootstrap {}: partition {} ended with {} of {} rows: the snapshot is incomplete, run it again",
                        r.getSnapshotId(),
                        r.getTopicPartition(),
                        s.rowsSeen(),
                        s.expected());
            }
            default ->
                LOG.info(
                        "bootstrap {}: partition {} at {}% ({} of {} rows, {} rows/s)",
                        r.getSnapshotId(),
                        r.getTopicPartition(),
                        Math.round(s.percent()),
                        s.rowsSeen(),
                        s.expected(),
                        Math.round(s.rowsPerSecond()));
        }
    }
}
