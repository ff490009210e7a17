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

import io.nearline.cacheupdater.core.BackgroundWrites;
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.CacheWritePath;
import io.nearline.cacheupdater.core.ChangeIntake;
import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.config.Config;
import io.nearline.common.deadletter.RejectionReason;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.events.ChangeEventValidator;
import io.nearline.common.events.Rejection;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.StoreOpener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
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
 * One task of the cache sink: the core's intake decodes and validates each record as the jobs do, bad
 * ones go to Connect's errant-record reporter, and the rest go through the core's write path, batched
 * per key and written on a thread of the task's own ({@link BackgroundWrites}), as on Samza.
 *
 * <p>A cut carries the input positions it covers; {@link #preCommit} hands Connect only positions whose cut is written and whose
 * dead letters are sent, so a committed offset never covers a write that is not durable. While the
 * store fails the writes are retried and the cuts wait; past {@value #PAUSE_AT_BATCHES} batches'
 * worth of waiting records the task pauses its partitions (Connect keeps polling, nothing is
 * dropped) and resumes them once the writes catch up.
 */
public final class CacheSinkTask extends SinkTask implements BackgroundWrites.Runtime<CacheSinkTask.Marks> {

    private static final Logger LOG = LoggerFactory.getLogger(CacheSinkTask.class);

    /** Records waiting to be written, in batches of write.batch.max-keys, past which input is paused. */
    static final int PAUSE_AT_BATCHES = 4;

    /** A pause longer than this is worth a warning: the store is slow or down, not just a burst. */
    private static final Duration SLOW_PAUSE = Duration.ofSeconds(10);

    /** How long a commit waits for the writes in flight before it commits what is written. */
    private static final Duration COMMIT_WAIT = Duration.ofSeconds(10);

    /** What a cut covers: the input positions after it and its records. */
    record Marks(Map<TopicPartition, Long> through, long records) {}

    /** A written cut: what it covers, and what the store refused for good. */
    private record Written(Marks marks, List<UpdateBatch.Refused> refused) {}

    private String name;
    private ChangeIntake intake;
    private int batchMaxKeys;
    private BackgroundWrites<Marks> writes;
    private ConnectMetrics metrics;
    private ErrantRecordReporter reporter;
    private Metrics.Counter deadLettered;

    // under the writes' lock: the task thread takes records, the timer cuts
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

    @Override
    public String version() {
        return SinkSettings.version();
    }

    @Override
    public void start(Map<String, String> props) {
        SinkSettings.requireValid(props);
        name = props.getOrDefault("name", "nearline-cache-sink");
        Config config = SinkSettings.nearline(props);
        int maxPayloadBytes = config.get(CacheUpdaterSettings.MAX_PAYLOAD_BYTES);
        String registry = config.get(CacheUpdaterSettings.SCHEMA_REGISTRY_DIR).strip();
        batchMaxKeys = config.get(CacheUpdaterSettings.BATCH_MAX_KEYS);
        reporter = context.errantRecordReporter();
        if (reporter == null) {
            throw new ConnectException("this Kafka Connect worker gives the task no errant-record reporter: the "
                    + "Nearline cache sink needs Kafka Connect 4.1 or newer");
        }
        metrics = new ConnectMetrics(context.pluginMetrics());
        intake = new ChangeIntake(
                CacheUpdaterSettings.decoder(config), ChangeEventValidator.of(maxPayloadBytes, registry), metrics);
        deadLettered = metrics.counter("events.dead-lettered");
        writes = new BackgroundWrites<>(
                CacheWritePath.open(config, StoreOpener.CONFIGURED, metrics),
                config.get(CacheUpdaterSettings.BATCH_MAX_DELAY),
                name,
                this);
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        takeWritten();
        synchronized (writes.lock()) {
            for (SinkRecord record : records) {
                take(record);
            }
        }
        pauseOrResume();
    }

    /** One record: into the batch, skipped, or dead-lettered; its position taken in every case. */
    private void take(SinkRecord record) {
        taken.put(new TopicPartition(record.topic(), record.kafkaPartition()), record.kafkaOffset() + 1);
        uncut = true;
        if (!(record.key() == null || record.key() instanceof byte[])
                || !(record.value() == null || record.value() instanceof byte[])) {
            intake.refuse(
                    Rejection.of(
                            Rejection.Reason.UNDECODABLE,
                            "the record is not raw bytes: key.converter and value.converter must be "
                                    + SinkSettings.BYTE_ARRAY_CONVERTER),
                    why -> deadLetter(record, why));
            return;
        }
        byte[] key = (byte[]) record.key();
        byte[] value = (byte[]) record.value();
        ChangeEvent event = intake.take(key, value, why -> deadLetter(record, why));
        if (event == null) {
            return;
        }
        SourceRecord source =
                new SourceRecord(name, record.topic(), record.kafkaPartition(), record.kafkaOffset(), key, value);
        batched++;
        writes.add(event, source, false, () -> false);
    }

    private void deadLetter(SinkRecord record, RejectionReason why) {
        deadLettered.inc();
        reports.add(reporter.report(record, new RejectedRecordException(why)));
    }

    /** At each cut (under the writes' lock): the positions it covers, if anything was taken since the last. */
    @Override
    public Marks marks() {
        if (!uncut) {
            return null;
        }
        Marks marks = new Marks(new HashMap<>(taken), batched);
        batched = 0;
        inFlight += marks.records();
        uncut = false;
        return marks;
    }

    /** On the write thread: handed to the task thread, which dead-letters the refused and makes the positions durable. */
    @Override
    public void written(Marks marks, List<UpdateBatch.Refused> refused) {
        written.add(new Written(marks, refused));
    }

    @Override
    public void failed(Marks marks, RuntimeException e) {
        writeFailure = e;
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
        durable.putAll(w.marks().through());
        synchronized (writes.lock()) {
            inFlight -= w.marks().records();
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
        synchronized (writes.lock()) {
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
        metrics.publishPending();
        writes.cut();
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
        synchronized (writes.lock()) {
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
        synchronized (writes.lock()) {
            partitions.forEach(taken::remove);
        }
        partitions.forEach(durable::remove);
    }

    @Override
    public void stop() {
        if (writes != null) {
            // what is not yet written is not committed either: it is read again. Within the worker's
            // task.shutdown.graceful.timeout.ms (5 s by default): a task that stops late keeps its metrics
            // registered while the worker starts the next one
            writes.close(Duration.ofSeconds(4));
        }
        if (metrics != null) {
            metrics.close();
        }
    }
}
