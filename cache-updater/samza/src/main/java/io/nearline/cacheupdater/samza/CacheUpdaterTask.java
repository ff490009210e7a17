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

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cdcbootstrap.core.BootstrapIntake;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.config.Config;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.RejectionReason;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.events.ChangeEventValidator;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.events.Decoded;
import io.nearline.common.events.Rejection;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import io.nearline.engines.samzakit.SamzaConfig;
import io.nearline.engines.samzakit.SamzaMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
 * One task per CDC partition: decode and validate each message, dead-letter the bad ones, and write
 * the rest through the SCN-ordered write, batched per key as on Flink ({@link UpdateBatch}).
 *
 * <p>An asynchronous task: a message's callback completes only once its write is durable (or its
 * dead letter sent). Samza commits only when no callback is pending ({@code task.async.commit} is
 * off), so every write before a committed offset is durable. The batch is cut when it holds
 * {@code write.batch.max-keys} keys, when half of {@code task.max.concurrency} messages wait in it (the
 * run loop stops handing out messages at the limit), and every {@code write.batch.max-delay}. Cuts are
 * written by one thread in order while the next batch fills. While the store fails, the writes block,
 * callbacks stay pending and Samza stops pulling input at the concurrency limit.
 *
 * <p>Bootstrap records (a second input) go through the engine-neutral {@link BootstrapIntake}, their
 * rows through the same write; what the intake counted of each snapshot goes into the task's store
 * with each batch, so it is committed with the input positions and a restarted task goes on counting.
 */
// ClosableTask is deprecated in Samza 1.8, but it is still the close hook a task gets
// without an application context factory.
@SuppressWarnings("deprecation")
final class CacheUpdaterTask implements AsyncStreamTask, InitableTask, ClosableTask {

    private final String bootstrapTopic;
    private CacheUpdaterSettings settings;
    private ChangeEventValidator validator;
    private BootstrapIntake bootstrap;
    private KeyValueStore<String, byte[]> progress;
    private CacheStore store;
    private UpdateBatch batch;
    /** Guards the batch, its callbacks and the bootstrap intake: the run loop adds, the timer cuts. */
    private final Object lock = new Object();
    /** Callbacks of the messages in the batch, completed once it is written. */
    private List<TaskCallback> waiting = new ArrayList<>();
    /** Snapshots with rows in the batch, whose counts are saved when it is cut. */
    private final Set<String> unsavedShares = new HashSet<>();

    private int cutAtMessages;
    /** One thread: cuts are written one at a time, in the order they were cut. */
    private ExecutorService writer;

    private ScheduledExecutorService timer;
    private volatile MessageCollector collector;
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
        batch = new UpdateBatch(
                new ScnOrderedWriter(store, WriterSettings.from(config), metrics),
                metrics,
                settings.maxPause(),
                settings.writeThreads(),
                settings.maxInFlight());
        cutAtMessages = Math.max(1, new TaskConfig(context.getJobContext().getConfig()).getMaxConcurrency() / 2);
        String name = context.getTaskContext().getTaskModel().getTaskName().getTaskName();
        writer = Executors.newSingleThreadExecutor(r -> daemon(r, "cache-write-" + name));
        timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "cache-batch-timer-" + name));
        long every = settings.batchMaxDelay().toMillis();
        timer.scheduleWithFixedDelay(this::cutIfWaiting, every, every, TimeUnit.MILLISECONDS);
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
            synchronized (lock) { // the intake's counts are saved when the batch is cut, on whichever thread cuts it
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
        received.inc();
        Decoded decoded = settings.decoder().decode((byte[]) envelope.getKey(), value);
        if (decoded.isSkipped()) {
            skipped.inc();
            return false;
        }
        Rejection rejection = decoded.ok() ? validator.check(decoded.event()) : decoded.rejection();
        if (rejection != null) {
            invalid.inc();
            deadLetter(collector, source, rejection);
            return false;
        }
        add(decoded.event(), source, false, callback);
        return true;
    }

    private void add(ChangeEvent event, SourceRecord source, boolean refreshTtl, TaskCallback callback) {
        synchronized (lock) {
            batch.add(
                    ChangeEvents.cacheKey(event),
                    new UpdateBatch.Pending(event, ChangeEvents.cacheRecord(event), source, refreshTtl));
            waiting.add(callback);
            if (waiting.size() >= cutAtMessages || batch.size() >= settings.batchMaxKeys()) {
                cut();
            }
        }
    }

    private void cutIfWaiting() {
        synchronized (lock) {
            if (!waiting.isEmpty()) {
                cut();
            }
        }
    }

    /**
     * Hands the batch to the write thread; its messages' callbacks complete once it is written. The
     * counts of the snapshots its rows belong to are saved now: Samza commits the store only when no
     * callback is pending, so a commit never holds a count whose rows are not written.
     */
    private void cut() {
        for (String share : unsavedShares) {
            progress.put(share, bootstrap.progress(share));
        }
        unsavedShares.clear();
        UpdateBatch.Cut cut = batch.cut();
        List<TaskCallback> done = waiting;
        waiting = new ArrayList<>();
        writer.execute(() -> {
            try {
                for (UpdateBatch.Refused refused : batch.write(cut)) {
                    // sent before the callbacks complete, so the commit that follows flushes it
                    deadLetter(collector, refused.change().source(), refused.rejection());
                }
                done.forEach(TaskCallback::complete);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the task is closing: the messages stay uncommitted
            } catch (RuntimeException e) {
                done.forEach(callback -> callback.failure(e));
            }
        });
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private void deadLetter(MessageCollector collector, SourceRecord source, RejectionReason why) {
        deadLettered.inc();
        collector.send(new OutgoingMessageEnvelope(deadLetters, DeadLetters.encode(source.deadLetter(why))));
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
        if (writer != null) {
            writer.shutdownNow(); // what is not yet written is not committed either: it is read again
            awaitQuietly(writer, Duration.ofSeconds(10));
        }
        if (batch != null) {
            batch.close();
        }
        if (store != null) {
            store.close();
        }
    }

    private static void awaitQuietly(ExecutorService pool, Duration timeout) {
        try {
            pool.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
