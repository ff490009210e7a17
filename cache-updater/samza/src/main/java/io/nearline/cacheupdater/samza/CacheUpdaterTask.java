package io.nearline.cacheupdater.samza;

import io.nearline.engine.samza.SamzaMetrics;

import io.nearline.bootstrap.BootstrapCodec;
import io.nearline.bootstrap.BootstrapTracker;
import io.nearline.bootstrap.avro.BootstrapKind;
import io.nearline.bootstrap.avro.BootstrapRecord;
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.events.ChangeEventCodec;
import io.nearline.cacheupdater.core.events.ChangeEventValidator;
import io.nearline.cacheupdater.core.events.ChangeEvents;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.cacheupdater.core.events.Decoded;
import io.nearline.cacheupdater.core.events.Rejection;
import io.nearline.common.config.Config;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import org.apache.samza.context.Context;
import org.apache.samza.system.IncomingMessageEnvelope;
import org.apache.samza.system.OutgoingMessageEnvelope;
import org.apache.samza.system.SystemStream;
import org.apache.samza.task.ClosableTask;
import org.apache.samza.task.InitableTask;
import org.apache.samza.task.MessageCollector;
import org.apache.samza.task.StreamTask;
import org.apache.samza.task.TaskCoordinator;

import java.util.HashMap;
import java.util.Map;

/**
 * One task per CDC partition: decode and validate each message, dead-letter the bad ones, and write
 * the rest through the SCN-ordered write before {@code process} returns. Samza commits a checkpoint
 * only between messages, so every write before a committed offset is durable. While the store
 * fails, {@code process} blocks and Samza stops pulling input.
 */
final class CacheUpdaterTask implements StreamTask, InitableTask, ClosableTask {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CacheUpdaterTask.class);

    private final String bootstrapTopic;
    private final BootstrapTracker tracker = new BootstrapTracker();
    private CacheUpdaterSettings settings;
    private ChangeEventValidator validator;
    private CacheStore store;
    private UpdateBatch batch;
    private SystemStream deadLetters;
    private Metrics.Counter received;
    private Metrics.Counter deadLettered;
    private Metrics.Counter bootstrapRecords;
    private Metrics.Counter bootstrapRows;
    private Metrics.Counter bootstrapComplete;
    private Metrics.Counter bootstrapIncomplete;

    /** @param bootstrapTopic the bootstrap topic this task also reads, or null */
    CacheUpdaterTask(String bootstrapTopic) {
        this.bootstrapTopic = bootstrapTopic;
    }

    @Override
    public void init(Context context) {
        Map<String, String> raw = new HashMap<>();
        context.getJobContext().getConfig().forEach(raw::put);
        Config config = Config.of(raw);
        settings = CacheUpdaterSettings.from(config);
        validator = new ChangeEventValidator(settings.maxPayloadBytes(), null);
        Metrics metrics = new SamzaMetrics(context.getTaskContext().getTaskMetricsRegistry());
        received = metrics.counter("events.received");
        deadLettered = metrics.counter("events.dead-lettered");
        bootstrapRecords = metrics.counter("bootstrap.records");
        bootstrapRows = metrics.counter("bootstrap.rows");
        bootstrapComplete = metrics.counter("bootstrap.partitions-complete");
        bootstrapIncomplete = metrics.counter("bootstrap.partitions-incomplete");
        store = CacheStores.open(config);
        // one message at a time: the write happens inline, in process()
        batch = new UpdateBatch(new ScnOrderedWriter(store, WriterSettings.from(config), metrics), metrics, settings.maxPause(), 1);
        deadLetters = new SystemStream(CacheUpdaterApp.SYSTEM, settings.deadLetterTopic());
    }

    @Override
    public void process(IncomingMessageEnvelope envelope, MessageCollector collector, TaskCoordinator coordinator)
            throws InterruptedException {
        byte[] key = (byte[]) envelope.getKey();
        byte[] value = (byte[]) envelope.getMessage();
        String topic = envelope.getSystemStreamPartition().getStream();
        int partition = envelope.getSystemStreamPartition().getPartition().getPartitionId();
        long offset = Long.parseLong(envelope.getOffset());
        if (topic.equals(bootstrapTopic)) {
            processBootstrap(collector, key, value, topic, partition, offset);
            bootstrapRecords.inc(); // after the write: a local run waits on this count
            return;
        }
        write(collector, key, value, ChangeEventCodec.decode(value), topic, partition, offset, false);
        received.inc(); // after the write: a local run waits on this count
    }

    /** Validates a change event (a CDC message or a bootstrap row) and writes it, or dead-letters it. */
    private void write(MessageCollector collector, byte[] key, byte[] value, Decoded decoded, String topic, int partition,
                       long offset, boolean refreshTtl) throws InterruptedException {
        Rejection rejection = decoded.ok() ? validator.check(decoded.event()) : decoded.rejection();
        if (rejection != null) {
            deadLetter(collector, DeadLetters.of(settings.consumerGroup(), topic, partition, offset, key, value, rejection,
                    System.currentTimeMillis()));
            return;
        }
        batch.add(ChangeEvents.cacheKey(decoded.event()), new UpdateBatch.Pending(decoded.event(),
                ChangeEvents.cacheRecord(decoded.event()), topic, partition, offset, refreshTtl));
        for (UpdateBatch.Refused refused : batch.flush()) {
            deadLetter(collector, DeadLetters.of(settings.consumerGroup(), topic, partition, offset, key, value,
                    refused.rejection(), System.currentTimeMillis()));
        }
    }

    /** A bootstrap record: a row is written like a change event; markers go to the completeness tracker. */
    private void processBootstrap(MessageCollector collector, byte[] key, byte[] value, String topic, int partition,
                                  long offset) throws InterruptedException {
        BootstrapRecord r = BootstrapCodec.decodeOrNull(value);
        if (r == null) {
            deadLetter(collector, DeadLetters.of(settings.consumerGroup() + "-bootstrap", topic, partition, offset, key, value,
                    Rejection.of(Rejection.Reason.UNDECODABLE, "not a bootstrap record"), System.currentTimeMillis()));
            return;
        }
        if (r.getKind() == BootstrapKind.ROW) {
            byte[] row = BootstrapCodec.rowBytes(r);
            if (row == null) {
                deadLetter(collector, DeadLetters.of(settings.consumerGroup() + "-bootstrap", topic, partition, offset, key,
                        value, Rejection.of(Rejection.Reason.UNDECODABLE, "a ROW without a row"), System.currentTimeMillis()));
                return;
            }
            write(collector, key, row, ChangeEventCodec.decode(row), topic, partition, offset, true); // refreshes the TTL
            bootstrapRows.inc();
        }
        switch (tracker.onRecord(r)) {
            case COMPLETE -> {
                bootstrapComplete.inc();
                LOG.info("bootstrap {}: partition {} complete, {} rows", r.getSnapshotId(), partition,
                        tracker.share(r.getSnapshotId(), r.getTopicPartition()).rowsSeen());
            }
            case INCOMPLETE_AT_END -> {
                bootstrapIncomplete.inc();
                LOG.error("bootstrap {}: partition {} ended with rows missing: the snapshot is incomplete, run it again",
                        r.getSnapshotId(), partition);
            }
            case PROGRESS -> {
                BootstrapTracker.Share s = tracker.share(r.getSnapshotId(), r.getTopicPartition());
                LOG.info("bootstrap {}: partition {} at {}% ({} of {} rows, {} rows/s)", r.getSnapshotId(), partition,
                        Math.round(s.percent()), s.rowsSeen(), s.expected(), Math.round(s.rowsPerSecond()));
            }
            default -> { }
        }
    }

    private void deadLetter(MessageCollector collector, io.nearline.common.avro.DeadLetter letter) {
        deadLettered.inc();
        collector.send(new OutgoingMessageEnvelope(deadLetters, DeadLetters.encode(letter)));
    }

    @Override
    public void close() {
        if (batch != null) {
            batch.close();
        }
        if (store != null) {
            store.close();
        }
    }
}
