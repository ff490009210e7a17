package io.nearline.cacheupdater.flink;

import io.nearline.engine.flink.FlinkMetrics;

import io.nearline.bootstrap.BootstrapCodec;
import io.nearline.bootstrap.BootstrapTracker;
import io.nearline.bootstrap.avro.BootstrapKind;
import io.nearline.bootstrap.avro.BootstrapRecord;
import io.nearline.cacheupdater.core.events.ChangeEventCodec;
import io.nearline.cacheupdater.core.events.ChangeEventValidator;
import io.nearline.cacheupdater.core.events.Decoded;
import io.nearline.cacheupdater.core.events.Rejection;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.metrics.Metrics;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bootstrapper's first step, chained to its source (so it sees each bootstrap-topic partition
 * whole and in order): rows go on to the SCN-ordered write like change events; BEGIN and END
 * markers feed the completeness tracker, which logs and counts each partition's share as it
 * completes (or ends with rows missing); anything else is dead-lettered.
 */
final class BootstrapDecodeFunction extends ProcessFunction<KafkaInput, Change> {

    private static final Logger LOG = LoggerFactory.getLogger(BootstrapDecodeFunction.class);

    private final String job;
    private final int maxPayloadBytes;
    private transient BootstrapTracker tracker;
    private transient ChangeEventValidator validator;
    private transient Metrics.Counter records;
    private transient Metrics.Counter rows;
    private transient Metrics.Counter complete;
    private transient Metrics.Counter incomplete;
    private transient Metrics.Counter deadLettered;

    BootstrapDecodeFunction(String job, int maxPayloadBytes) {
        this.job = job;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    @Override
    public void open(OpenContext context) {
        tracker = new BootstrapTracker();
        validator = new ChangeEventValidator(maxPayloadBytes, null);
        Metrics metrics = new FlinkMetrics(getRuntimeContext().getMetricGroup());
        records = metrics.counter("bootstrap.records");
        rows = metrics.counter("bootstrap.rows");
        complete = metrics.counter("bootstrap.partitions-complete");
        incomplete = metrics.counter("bootstrap.partitions-incomplete");
        deadLettered = metrics.counter("events.dead-lettered");
    }

    @Override
    public void processElement(KafkaInput in, Context ctx, Collector<Change> out) {
        BootstrapRecord r = BootstrapCodec.decodeOrNull(in.value);
        Rejection rejection = null;
        if (r == null) {
            rejection = Rejection.of(Rejection.Reason.UNDECODABLE, "not a bootstrap record");
        } else if (r.getKind() == BootstrapKind.ROW) {
            byte[] row = BootstrapCodec.rowBytes(r);
            Decoded decoded = row == null ? null : ChangeEventCodec.decode(row);
            rejection = decoded == null ? Rejection.of(Rejection.Reason.UNDECODABLE, "a ROW without a row")
                    : decoded.ok() ? validator.check(decoded.event()) : decoded.rejection();
            if (rejection == null) {
                rows.inc();
                Change change = new Change(decoded.event().getKey(), row, in.topic, in.partition, in.offset);
                change.refreshTtl = true;
                out.collect(change);
            }
        }
        if (rejection != null) {
            deadLettered.inc();
            ctx.output(DecodeFunction.DEAD_LETTERS, DeadLetters.encode(DeadLetters.of(job, in.topic, in.partition, in.offset,
                    in.key, in.value, rejection, System.currentTimeMillis())));
        } else {
            track(r);
        }
        records.inc(); // after the work: a local run waits on this count
    }

    private void track(BootstrapRecord r) {
        switch (tracker.onRecord(r)) {
            case COMPLETE -> {
                complete.inc();
                LOG.info("bootstrap {}: partition {} complete, {} rows", r.getSnapshotId(), r.getTopicPartition(),
                        tracker.share(r.getSnapshotId(), r.getTopicPartition()).rowsSeen());
            }
            case INCOMPLETE_AT_END -> {
                incomplete.inc();
                BootstrapTracker.Share s = tracker.share(r.getSnapshotId(), r.getTopicPartition());
                LOG.error("bootstrap {}: partition {} ended with {} of {} rows: the snapshot is incomplete, run it again",
                        r.getSnapshotId(), r.getTopicPartition(), s.rowsSeen(), s.expected());
            }
            case PROGRESS -> {
                BootstrapTracker.Share s = tracker.share(r.getSnapshotId(), r.getTopicPartition());
                LOG.info("bootstrap {}: partition {} at {}% ({} of {} rows, {} rows/s)", r.getSnapshotId(), r.getTopicPartition(),
                        Math.round(s.percent()), s.rowsSeen(), s.expected(), Math.round(s.rowsPerSecond()));
            }
            default -> { }
        }
    }
}
