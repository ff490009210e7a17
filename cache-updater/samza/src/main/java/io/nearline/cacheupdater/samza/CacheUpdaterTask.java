package io.nearline.cacheupdater.samza;

import io.nearline.bootstrap.BootstrapIntake;
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.events.ChangeEventValidator;
import io.nearline.cacheupdater.core.events.ChangeEvents;
import io.nearline.cacheupdater.core.events.Decoded;
import io.nearline.cacheupdater.core.events.Rejection;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.config.Config;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.RejectionReason;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import io.nearline.engine.samza.SamzaConfig;
import io.nearline.engine.samza.SamzaMetrics;
import org.apache.samza.context.Context;
import org.apache.samza.storage.kv.Entry;
import org.apache.samza.storage.kv.KeyValueIterator;
import org.apache.samza.storage.kv.KeyValueStore;
import org.apache.samza.system.IncomingMessageEnvelope;
import org.apache.samza.system.OutgoingMessageEnvelope;
import org.apache.samza.system.SystemStream;
import org.apache.samza.system.SystemStreamPartition;
import org.apache.samza.task.ClosableTask;
import org.apache.samza.task.InitableTask;
import org.apache.samza.task.MessageCollector;
import org.apache.samza.task.StreamTask;
import org.apache.samza.task.TaskCoordinator;

/**
 * One task per CDC partition: decode and validate each message, dead-letter the bad ones, and write
 * the rest through the SCN-ordered write before {@code process} returns. Samza commits a checkpoint
 * only between messages, so every write before a committed offset is durable. While the store
 * fails, {@code process} blocks and Samza stops pulling input. Bootstrap records (a second input)
 * go through the engine-neutral {@link BootstrapIntake}, their rows through the same write; what the
 * intake counted of each snapshot goes into the task's store with each record, so it is committed with
 * the input positions and a restarted task goes on counting.
 */
// ClosableTask is deprecated in Samza 1.8, but it is still the close hook a StreamTask gets
// without an application context factory.
@SuppressWarnings("deprecation")
final class CacheUpdaterTask implements StreamTask, InitableTask, ClosableTask {

    private final String bootstrapTopic;
    private CacheUpdaterSettings settings;
    private ChangeEventValidator validator;
    private BootstrapIntake bootstrap;
    private KeyValueStore<String, byte[]> progress;
    private CacheStore store;
    private UpdateBatch batch;
    private SystemStream deadLetters;
    private Metrics.Counter received;
    private Metrics.Counter invalid;
    private Metrics.Counter deadLettered;
    private Metrics.Counter skipped;

    /** @param bootstrapTopic the bootstrap topic this task also reads, or null */
    CacheUpdaterTask(String bootstrapTopic) {
        this.bootstrapTopic = bootstrapTopic;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void init(Context context) {
        Config config = SamzaConfig.nearline(context.getJobContext().getConfig());
        settings = CacheUpdaterSettings.from(config);
        validator = ChangeEventValidator.of(settings.maxPayloadBytes(), settings.schemaRegistryDir());
        Metrics metrics = new SamzaMetrics(context.getTaskContext().getTaskMetricsRegistry());
        received = metrics.counter("events.received");
        invalid = metrics.counter("events.invalid");
        deadLettered = metrics.counter("events.dead-lettered");
        skipped = metrics.counter("events.skipped");
        bootstrap = new BootstrapIntake(
                ChangeEventValidator.of(settings.maxPayloadBytes(), settings.schemaRegistryDir()), metrics);
        if (bootstrapTopic != null) {
            progress =
                    (KeyValueStore<String, byte[]>) context.getTaskContext().getStore(CacheUpdaterApp.PROGRESS_STORE);
            KeyValueIterator<String, byte[]> all = progress.all();
            try {
                while (all.hasNext()) {
                    Entry<String, byte[]> share = all.next();
                    bootstrap.restore(share.getKey(), share.getValue());
                }
            } finally {
                all.close();
            }
        }
        store = CacheStores.open(config);
        // one message at a time: the write happens inline, in process()
        batch = new UpdateBatch(
                new ScnOrderedWriter(store, WriterSettings.from(config), metrics), metrics, settings.maxPause(), 1);
        deadLetters = new SystemStream(CacheUpdaterApp.SYSTEM, settings.deadLetterTopic());
    }

    @Override
    public void process(IncomingMessageEnvelope envelope, MessageCollector collector, TaskCoordinator coordinator)
            throws InterruptedException {
        SystemStreamPartition ssp = envelope.getSystemStreamPartition();
        boolean fromBootstrap = ssp.getStream().equals(bootstrapTopic);
        byte[] value = (byte[]) envelope.getMessage();
        SourceRecord source = new SourceRecord(
                settings.readerGroup(fromBootstrap),
                ssp.getStream(),
                ssp.getPartition().getPartitionId(),
                Long.parseLong(envelope.getOffset()),
                (byte[]) envelope.getKey(),
                value);
        if (fromBootstrap) {
            BootstrapIntake.Taken taken = bootstrap.take(value);
            if (taken instanceof BootstrapIntake.Row row) {
                write(collector, row.event(), source, true); // refreshes the TTL
                progress.put(row.share(), bootstrap.progress(row.share()));
            } else if (taken instanceof BootstrapIntake.Marker marker) {
                progress.put(marker.share(), bootstrap.progress(marker.share()));
            } else if (taken instanceof BootstrapIntake.Rejected rejected) {
                deadLetter(collector, source, rejected.rejection());
            }
            return;
        }
        received.inc();
        Decoded decoded = settings.decoder().decode((byte[]) envelope.getKey(), value);
        if (decoded.isSkipped()) {
            skipped.inc();
            return;
        }
        Rejection rejection = decoded.ok() ? validator.check(decoded.event()) : decoded.rejection();
        if (rejection != null) {
            invalid.inc();
            deadLetter(collector, source, rejection);
        } else {
            write(collector, decoded.event(), source, false);
        }
    }

    private void write(MessageCollector collector, ChangeEvent event, SourceRecord source, boolean refreshTtl)
            throws InterruptedException {
        batch.add(
                ChangeEvents.cacheKey(event),
                new UpdateBatch.Pending(event, ChangeEvents.cacheRecord(event), source, refreshTtl));
        for (UpdateBatch.Refused refused : batch.flush()) {
            deadLetter(collector, refused.change().source(), refused.rejection());
        }
    }

    private void deadLetter(MessageCollector collector, SourceRecord source, RejectionReason why) {
        deadLettered.inc();
        collector.send(new OutgoingMessageEnvelope(deadLetters, DeadLetters.encode(source.deadLetter(why))));
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
