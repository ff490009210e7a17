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
package io.nearline.cacheupdater.flink;

import io.nearline.cacheupdater.core.CacheWritePath;
import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.common.metrics.Metrics;
import io.nearline.engines.flinkkit.FlinkMetrics;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Writes keyed changes into the cache through the core's write path ({@link CacheWritePath}: the
 * SCN-ordered write, batched per key), flushed on the operator's own thread. The batch is flushed when it holds {@code write.batch.max-keys} keys, every
 * {@code write.batch.max-delay}, at end of input, and before every checkpoint barrier leaves this
 * operator — so a checkpoint, and with it the Kafka offsets it commits, never covers a write that is
 * not yet durable. While the store fails, the flush blocks and backpressure stops the source.
 */
final class CacheWriteOperator extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<Change, Void>, BoundedOneInput {

    /** Read from the job's settings once, where the job is defined. */
    private final CacheWritePath.Settings settings;

    private transient CacheWritePath writes;
    private transient Metrics.Counter deadLettered;

    CacheWriteOperator(CacheWritePath.Settings settings) {
        this.settings = settings;
    }

    @Override
    public void open() throws Exception {
        super.open();
        Metrics metrics = new FlinkMetrics(getMetricGroup());
        writes = CacheWritePath.open(settings, metrics);
        deadLettered = metrics.counter("events.dead-lettered");
        scheduleFlush();
    }

    @Override
    public void processElement(StreamRecord<Change> element) throws Exception {
        Change change = element.getValue();
        writes.add(change.key(), change.pending());
        if (writes.full()) {
            flush();
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush();
    }

    @Override
    public void endInput() throws Exception {
        flush();
    }

    private void scheduleFlush() {
        long at = getProcessingTimeService().getCurrentProcessingTime()
                + settings.batchMaxDelay().toMillis();
        getProcessingTimeService().registerTimer(at, time -> {
            flush();
            scheduleFlush();
        });
    }

    private void flush() throws InterruptedException {
        if (writes.isEmpty()) {
            return;
        }
        for (UpdateBatch.Refused refused : writes.flush()) {
            deadLettered.inc();
            output.collect(
                    DeadLetterOutput.TAG,
                    new StreamRecord<>(DeadLetterOutput.of(refused.change().source(), refused.rejection())));
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (writes != null) {
                writes.close();
            }
        } finally {
            super.close();
        }
    }
}
