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
package io.nearline.cacheupdater.connect;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.common.config.Config;
import io.nearline.common.deadletter.RejectionReason;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.events.ChangeDecoder;
import io.nearline.common.events.ChangeEventValidator;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.events.Decoded;
import io.nearline.common.events.Rejection;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task of the cache sink: decode and validate each record as the jobs do, dead-letter the bad
 * ones through Connect's errant-record reporter, and write the rest through the version-ordered
 * write, batched per key ({@link UpdateBatch}), as on Samza.
 *
 * <p>Batches are cut at {@code write.batch.max-keys} keys and every {@code write.batch.max-delay}, and
 * written by one thread in the order they were cut while the next one fills. A cut carries the input
 * positions it covers; {@link #preCommit} hands Connect only positions whose cut is written and whose
 * dead letters are sent, so a committed offset never covers a write that is not durable. While the
 * store fails the writes are retried and the cuts wait; past {@value #PAUSE_AT_BATCHES} batches'
 * worth of waiting records the task pauses its partitions (Connect keeps polling, nothing is
 * dropped) and resumes them once the writes catch up.
 */
public final class CacheSinkTask extends SinkTask {

    private static final Logger LOG = LoggerFactory.getLogger(CacheSinkTask.class);

    /** Records waiting to be written, in batches of write.batch.max-keys, past which input is paused. */
    static final int PAUSE_AT_BATCHES = 4;

    /** A pause longer than this is worth a warning: the store is slow or down, not just a burst. */
    private static final Duration SLOW_PAUSE = Duration.ofSeconds(10);

    /** How long a commit waits for the writes in flight before it commits what is written. */
    private static final Duration COMMIT_WAIT = Duration.ofSeconds(10);

    /** A written cut: the input positions it covers, its records, and what the store refused for good. */
    private record Written(Map<TopicPartition, Long> through, long records, List<UpdateBatch.Refused> refused) {}

    private String name;
    private ChangeDecoder decoder;
    private ChangeEventValidator validator;
    private int batchMaxKeys;
    private CacheStore store;
    private UpdateBatch batch;
    private ConnectMetrics metrics;
    private ErrantRecordReporter reporter;
    private Metrics.Counter received;
    private Metrics.Counter invalid;
    private Metrics.Counter deadLettered;
    private Metrics.Counter skipped;

    /** Guards the batch and the positions taken: the task thread adds, the timer cuts. */
    private final Object lock = new Object();
    /** Per partition, the offset after the last record taken (written, batched or dead-lettered). */
    private final Map<TopicPartition, Long> taken = new HashMap<>();
    /** Whether anything was taken since the last cut. */
    private boolean uncut;
    /** Records in the batch being filled. */
    private long batched;
    /** Records in cuts not yet written (the task thread and the timer cut, the task thread drains). */
    private long inFlight;

    private final LinkedBlockingQueue<Written> written = new LinkedBlockingQueue<>();
    /** Per partition, the offset after the last record whose write is durable: what a commit may cover. */
    private final Map<TopicPartition, Long> durable = new HashMap<>();

    private final List<Future<Void>> reports = new ArrayList<>();
    private volatile RuntimeException writeFailure;
    /** When input was paused (System.nanoTime), 0 while it flows. */
    private long pausedSince;
    /** Whether this pause was long enough to be warned about. */
    private boolean warned;

    private ExecutorService writer;
    private ScheduledExecutorService timer;

    @Override
    public String version() {
        return SinkSettings.version();
    }

    @Override
    public void start(Map<String, String> props) {
        SinkSettings.requireValid(props);
        name = props.getOrDefault("name", "nearline-cache-sink");
        Config config = SinkSettings.nearline(props);
        decoder = CacheUpdaterSettings.decoder(config);
        int maxPayloadBytes = config.get(CacheUpdaterSettings.MAX_PAYLOAD_BYTES);
        String registry = config.get(CacheUpdaterSettings.SCHEMA_REGISTRY_DIR).strip();
        validator = ChangeEventValidator.of(maxPayloadBytes, registry);
        batchMaxKeys = config.get(CacheUpdaterSettings.BATCH_MAX_KEYS);
        reporter = context.errantRecordReporter();
        if (reporter == null) {
            throw new ConnectException("this Kafka Connect worker gives the task no errant-record reporter: the "
                    + "Nearline cache sink needs Kafka Connect 4.1 or newer");
        }
        metrics = new ConnectMetrics(context.pluginMetrics());
        received = metrics.counter("events.received");
        invalid = metrics.counter("events.invalid");
        deadLettered = metrics.counter("events.dead-lettered");
        skipped = metrics.counter("events.skipped");
        store = CacheStores.open(config);
        batch = new UpdateBatch(
                new ScnOrderedWriter(store, WriterSettings.from(config), metrics),
                metrics,
                config.get(CacheUpdaterSettings.MAX_PAUSE),
                config.get(CacheUpdaterSettings.WRITE_THREADS),
                config.get(CacheUpdaterSettings.MAX_IN_FLIGHT));
        writer = Executors.newSingleThreadExecutor(r -> daemon(r, "cache-write-" + name));
        timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "cache-batch-timer-" + name));
        long every = config.get(CacheUpdaterSettings.BATCH_MAX_DELAY).toMillis();
        timer.scheduleWithFixedDelay(this::cutIfUncut, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        takeWritten();
        synchronized (lock) {
            for (SinkRecord record : records) {
                take(record);
            }
        }
        pauseOrResume();
    }

    /** One record: into the batch, skipped, or dead-lettered; its position taken in every case. */
    private void take(SinkRecord record) {
        received.inc();
        taken.put(new TopicPartition(record.topic(), record.kafkaPartition()), record.kafkaOffset() + 1);
        uncut = true;
        if (!(record.key() == null || record.key() instanceof byte[])
                || !(record.value() == null || record.value() instanceof byte[])) {
            reject(
                    record,
                    Rejection.of(
                            Rejection.Reason.UNDECODABLE,
                            "the record is not raw bytes: key.converter and value.converter must be "
                                    + SinkSettings.BYTE_ARRAY_CONVERTER));
            return;
        }
        byte[] key = (byte[]) record.key();
        byte[] value = (byte[]) record.value();
        Decoded decoded = decoder.decode(key, value);
        if (decoded.isSkipped()) {
            skipped.inc();
            return;
        }
        Rejection rejection = decoded.ok() ? validator.check(decoded.event()) : decoded.rejection();
        if (rejection != null) {
            reject(record, rejection);
            return;
        }
        SourceRecord source =
                new SourceRecord(name, record.topic(), record.kafkaPartition(), record.kafkaOffset(), key, value);
        batch.add(
                ChangeEvents.cacheKey(decoded.event()),
                new UpdateBatch.Pending(decoded.event(), ChangeEvents.cacheRecord(decoded.event()), source, false));
        batched++;
        if (batch.size() >= batchMaxKeys) {
            cut();
        }
    }

    private void reject(SinkRecord record, RejectionReason why) {
        invalid.inc();
        deadLetter(record, why);
    }

    private void deadLetter(SinkRecord record, RejectionReason why) {
        deadLettered.inc();
        reports.add(reporter.report(record, new RejectedRecordException(why)));
    }

    private void cutIfUncut() {
        synchronized (lock) {
            if (uncut) {
                cut();
            }
        }
    }

    /** Hands the batch to the write thread with the positions it covers (under the lock). */
    private void cut() {
        UpdateBatch.Cut cut = batch.cut();
        Map<TopicPartition, Long> through = new HashMap<>(taken);
        long records = batched;
        batched = 0;
        inFlight += records;
        uncut = false;
        writer.execute(() -> {
            try {
                written.add(new Written(through, records, batch.write(cut)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // stopping: what is not written is not committed either
            } catch (RuntimeException e) {
                writeFailure = e;
            }
        });
    }

    /** The cuts written since the last call: their refused writes dead-lettered, their positions durable. */
    private void takeWritten() {
        for (Written w = written.poll(); w != null; w = written.poll()) {
            apply(w);
        }
        failIfWriteFailed();
    }

    private void apply(Written w) {
        for (UpdateBatch.Refused refused : w.refused()) {
            SourceRecord s = refused.change().source();
            // the record as read again from what the batch kept: Connect's reporter needs a timestamp, not its value
            SinkRecord record = new SinkRecord(
                    s.topic(),
                    s.partition(),
                    null,
                    s.key(),
                    null,
                    s.value(),
                    s.offset(),
                    RecordBatch.NO_TIMESTAMP,
                    TimestampType.NO_TIMESTAMP_TYPE);
            deadLetter(record, refused.rejection());
        }
        durable.putAll(w.through());
        synchronized (lock) {
            inFlight -= w.records();
        }
    }

    private void failIfWriteFailed() {
        RuntimeException failure = writeFailure;
        if (failure != null) {
            throw new ConnectException("a cache write failed: " + failure.getMessage(), failure);
        }
    }

    /**
     * Backpressure: input paused while too many records wait to be written, resumed when half have
     * gone. Under a burst this is routine and logged at debug; a pause that lasts is a warning.
     */
    private void pauseOrResume() {
        long waiting;
        synchronized (lock) {
            waiting = inFlight + batched;
        }
        long limit = (long) PAUSE_AT_BATCHES * batchMaxKeys;
        if (pausedSince == 0 && waiting > limit) {
            pausedSince = System.nanoTime();
            warned = false;
            context.pause(context.assignment().toArray(TopicPartition[]::new));
            LOG.debug("{} records wait to be written to the cache: input paused", waiting);
        } else if (pausedSince != 0 && waiting <= limit / 2) {
            long pausedMillis = (System.nanoTime() - pausedSince) / 1_000_000;
            pausedSince = 0;
            context.resume(context.assignment().toArray(TopicPartition[]::new));
            if (warned) {
                LOG.info("the cache writes caught up after {} ms: input resumed", pausedMillis);
            } else {
                LOG.debug("the cache writes caught up after {} ms: input resumed", pausedMillis);
            }
        }
        if (pausedSince != 0) {
            if (!warned && System.nanoTime() - pausedSince > SLOW_PAUSE.toNanos()) {
                warned = true;
                LOG.warn(
                        "input paused for {} s: {} records still wait to be written to the cache (is it down?)",
                        SLOW_PAUSE.toSeconds(),
                        waiting);
            }
            context.timeout(100); // poll again soon, to resume as soon as the writes allow
        }
    }

    /**
     * What Connect may commit: for each partition, the position after the last record whose write is
     * durable and whose dead letter is sent. Cuts what is pending first and waits up to
     * {@link #COMMIT_WAIT} for the writes in flight, so that a healthy store commits everything put.
     */
    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        cutIfUncut();
        long deadline = System.nanoTime() + COMMIT_WAIT.toNanos();
        try {
            while (inFlight() > 0 && writeFailure == null) {
                long left = deadline - System.nanoTime();
                Written w = written.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
                if (w == null) {
                    break; // the store is slow or down: commit what is durable, the rest next time
                }
                apply(w);
            }
            takeWritten();
            awaitReports(deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        }
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        for (TopicPartition tp : currentOffsets.keySet()) {
            Long offset = durable.get(tp);
            if (offset != null) {
                commit.put(tp, new OffsetAndMetadata(offset));
            }
        }
        return commit;
    }

    private long inFlight() {
        synchronized (lock) {
            return inFlight;
        }
    }

    /** Every dead letter reported so far sent; one that failed fails the task (its record is read again). */
    private void awaitReports(long deadline) throws InterruptedException {
        for (Future<Void> report : reports) {
            try {
                report.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                throw new ConnectException("a dead letter could not be sent: " + e.getCause(), e.getCause());
            } catch (TimeoutException e) {
                throw new ConnectException("dead letters not sent within " + COMMIT_WAIT.toSeconds() + " s");
            }
        }
        reports.clear();
    }

    @Override
    public void close(Collection<TopicPartition> partitions) {
        // the partitions' commit is done (preCommit ran first); their positions go with them
        synchronized (lock) {
            partitions.forEach(taken::remove);
        }
        partitions.forEach(durable::remove);
    }

    @Override
    public void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
        if (writer != null) {
            writer.shutdownNow(); // what is not yet written is not committed either: it is read again
            try {
                // within the worker's task.shutdown.graceful.timeout.ms (5 s by default): a task that stops late
                // keeps its metrics registered while the worker starts the next one
                writer.awaitTermination(4, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (batch != null) {
            batch.close();
        }
        if (store != null) {
            store.close();
        }
        if (metrics != null) {
            metrics.close();
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
