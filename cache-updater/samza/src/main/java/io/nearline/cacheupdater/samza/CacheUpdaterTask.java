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
package io.nearline.cacheupdater.samza;

import io.nearline.cacheupdater.core.BackgroundWrites;
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.CacheWritePath;
import io.nearline.cacheupdater.core.ChangeIntake;
import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.cdcbootstrap.core.BootstrapIntake;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.config.Config;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.RejectionReason;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.events.ChangeEventValidator;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.StoreOpener;
import io.nearline.engines.samzakit.SamzaConfig;
import io.nearline.engines.samzakit.SamzaMetrics;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.samza.config.TaskConfig;
import org.apache.samza.context.Context;
import org.apache.samza.storage.kv.Entry;
import org.apache.samza.storage.kv.KeyValueIterator;
import org.apache.samza.storage.kv.KeyValueStore;
import org.apache.samza.system.IncomingMessageEnvelope;
import org.apache.samza.system.OutgoingMessageEnvelope;
import org.apache.samza.system.SystemStream;
import org.apache.samza.system.SystemStreamPartition;
import org.apache.samza.task.AsyncStreamTask;
import org.apache.samza.task.ClosableTask;
import org.apache.samza.task.InitableTask;
import org.apache.samza.task.MessageCollector;
import org.apache.samza.task.TaskCallback;
import org.apache.samza.task.TaskCoordinator;

/**
 * One task per CDC partition: the core's intake decodes and validates each message, bad ones go to
 * the dead-letter topic, and the rest go through the core's write path, batched per key and written
 * on a thread of the task's own ({@link BackgroundWrites}).
 *
 * <p>An asynchronous task: a message's callback completes only once its write is durable (or its
 * dead letter sent). Samza commits only when no callback is pending ({@code task.async.commit} is
 * off), so every write before a committed offset is durable. Besides the core's cuts (by size and
 * time), the batch is cut when half of {@code task.max.concurrency} messages wait in it: the run loop
 * stops handing out messages at the limit, which is also how the task holds its input back while the
 * store fails.
 *
 * <p>Bootstrap records (a second input) go through the engine-neutral {@link BootstrapIntake}, their
 * rows through the same write; what the intake counted of each snapshot goes into the task's store
 * with each cut, so it is committed with the input positions and a restarted task goes on counting.
 */
// ClosableTask is deprecated in Samza 1.8, but it is still the close hook a task gets
// without an application context factory.
@SuppressWarnings("deprecation")
final class CacheUpdaterTask
        implements AsyncStreamTask, InitableTask, ClosableTask, BackgroundWrites.Runtime<List<TaskCallback>> {

    private final String bootstrapTopic;
    private final StoreOpener cache;
    private CacheUpdaterSettings settings;
    private ChangeIntake intake;
    private BootstrapIntake bootstrap;
    private KeyValueStore<String, byte[]> progress;
    private BackgroundWrites<List<TaskCallback>> writes;
    /** Callbacks of the messages in the batch, completed once it is written (under the writes' lock). */
    private List<TaskCallback> waiting = new ArrayList<>();
    /** Snapshots with rows in the batch, whose counts are saved when it is cut (under the writes' lock). */
    private final Set<String> unsavedShares = new HashSet<>();

    private int cutAtMessages;
    /** The task's own reason to cut, read under the writes' lock: one supplier, not one per message. */
    private final BooleanSupplier halfConcurrencyWaits = () -> waiting.size() >= cutAtMessages;

    private volatile MessageCollector collector;
    private SystemStream deadLetters;
    private Metrics.Counter deadLettered;

    /**
     * @param bootstrapTopic the bootstrap topic this task also reads, or null
     * @param cache how the task opens its store
     */
    CacheUpdaterTask(String bootstrapTopic, StoreOpener cache) {
        this.bootstrapTopic = bootstrapTopic;
        this.cache = cache;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void init(Context context) {
        Config config = SamzaConfig.nearline(context.getJobContext().getConfig());
        settings = CacheUpdaterSettings.from(config);
        Metrics metrics = new SamzaMetrics(context.getTaskContext().getTaskMetricsRegistry());
        intake = new ChangeIntake(
                settings.decoder(),
                ChangeEventValidator.of(settings.maxPayloadBytes(), settings.schemaRegistryDir()),
                metrics);
        deadLettered = metrics.counter("events.dead-lettered");
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
        cutAtMessages = Math.max(1, new TaskConfig(context.getJobContext().getConfig()).getMaxConcurrency() / 2);
        String name = context.getTaskContext().getTaskModel().getTaskName().getTaskName();
        writes = new BackgroundWrites<>(
                CacheWritePath.open(config, cache, metrics), settings.batchMaxDelay(), name, this);
        deadLetters = new SystemStream(CacheUpdaterApp.SYSTEM, settings.deadLetterTopic());
    }

    @Override
    public void processAsync(
            IncomingMessageEnvelope envelope,
            MessageCollector collector,
            TaskCoordinator coordinator,
            TaskCallback callback) {
        this.collector = collector;
        try {
            if (!process(envelope, collector, callback)) {
                callback.complete();
            }
        } catch (RuntimeException e) {
            callback.failure(e);
        }
    }

    /** @return true when the message waits in the batch (its callback completes when the batch is written) */
    private boolean process(IncomingMessageEnvelope envelope, MessageCollector collector, TaskCallback callback) {
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
            synchronized (writes.lock()) { // the intake's counts are saved at each cut, on whichever thread cuts
                BootstrapIntake.Taken taken = bootstrap.take(value);
                if (taken instanceof BootstrapIntake.Row row) {
                    unsavedShares.add(row.share());
                    add(row.event(), source, true, callback); // refreshes the TTL
                    return true;
                } else if (taken instanceof BootstrapIntake.Marker marker) {
                    progress.put(marker.share(), bootstrap.progress(marker.share()));
                } else if (taken instanceof BootstrapIntake.Rejected rejected) {
                    deadLetter(collector, source, rejected.rejection());
                }
            }
            return false;
        }
        ChangeEvent event =
                intake.take((byte[]) envelope.getKey(), value, rejection -> deadLetter(collector, source, rejection));
        if (event == null) {
            return false;
        }
        add(event, source, false, callback);
        return true;
    }

    private void add(ChangeEvent event, SourceRecord source, boolean refreshTtl, TaskCallback callback) {
        synchronized (writes.lock()) {
            waiting.add(callback);
            writes.add(event, source, refreshTtl, halfConcurrencyWaits);
        }
    }

    /**
     * At each cut: the callbacks to complete once it is written. The counts of the snapshots its rows
     * belong to are saved now: Samza commits the store only when no callback is pending, so a commit
     * never holds a count whose rows are not written.
     */
    @Override
    public List<TaskCallback> marks() {
        if (waiting.isEmpty()) {
            return null;
        }
        for (String share : unsavedShares) {
            progress.put(share, bootstrap.progress(share));
        }
        unsavedShares.clear();
        List<TaskCallback> done = waiting;
        waiting = new ArrayList<>();
        return done;
    }

    @Override
    public void written(List<TaskCallback> done, List<UpdateBatch.Refused> refused) {
        for (UpdateBatch.Refused r : refused) {
            // sent before the callbacks complete, so the commit that follows flushes it
            deadLetter(collector, r.change().source(), r.rejection());
        }
        done.forEach(TaskCallback::complete);
    }

    @Override
    public void failed(List<TaskCallback> done, RuntimeException e) {
        done.forEach(callback -> callback.failure(e));
    }

    private void deadLetter(MessageCollector collector, SourceRecord source, RejectionReason why) {
        deadLettered.inc();
        collector.send(new OutgoingMessageEnvelope(deadLetters, DeadLetters.encode(source.deadLetter(why))));
    }

    @Override
    public void close() {
        if (writes != null) {
            writes.close(); // what is not yet written is not committed either: it is read again
        }
    }
}
