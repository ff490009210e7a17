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
package io.nearline.cacheupdater.core;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.deadletter.SourceRecord;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A task's batch written on a thread of its own while the next one fills: the batch engine of the
 * runtimes that hand a task its input on one thread and let it finish later (Samza's asynchronous
 * task, Kafka Connect's sink task). Flink's operator flushes on its own thread instead, before each
 * checkpoint barrier, through the same {@link CacheWritePath}.
 *
 * <p>The batch is cut when it holds {@code write.batch.max-keys} keys, when the runtime asks (Samza:
 * when half its concurrency waits in it), and every {@code write.batch.max-delay}. Cuts are written
 * one at a time, in the order they were cut, so each key's writes stay in order. At each cut the
 * runtime takes its marks for it (the callbacks to complete, the input positions a commit may cover)
 * and gets them back once the cut's writes are durable, with what the store refused for good; a
 * runtime releases its marks only after those refusals are dead-lettered, so that nothing it commits
 * is lost. While the store fails, the writes block and the cuts wait; how the runtime then holds its
 * input back is its own (Samza's concurrency limit, Connect's pause).
 *
 * @param <M> what the runtime keeps with a cut
 */
public final class BackgroundWrites<M> implements AutoCloseable {

    /** The runtime's side of the cuts. */
    public interface Runtime<M> {
        /**
         * Called under {@link #lock()} when a batch is cut: the marks of what the cut covers, reset for
         * the next; null when nothing was taken since the last cut (there is nothing to cut).
         */
        M marks();

        /** On the write thread: the cut's writes are durable; {@code refused} are to be dead-lettered. */
        void written(M marks, List<UpdateBatch.Refused> refused);

        /** On the write thread: the cut could not be written. */
        void failed(M marks, RuntimeException e);
    }

    private final Object lock = new Object();
    private final CacheWritePath path;
    private final Runtime<M> runtime;
    /** One thread: cuts are written one at a time, in the order they were cut. */
    private final ExecutorService writer;

    private final ScheduledExecutorService timer;

    /** Starts the write thread and the timer that cuts every {@code maxDelay}; {@code name} names their threads. */
    public BackgroundWrites(CacheWritePath path, Duration maxDelay, String name, Runtime<M> runtime) {
        this.path = path;
        this.runtime = runtime;
        this.writer = Executors.newSingleThreadExecutor(r -> daemon(r, "cache-write-" + name));
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "cache-batch-timer-" + name));
        long every = maxDelay.toMillis();
        timer.scheduleWithFixedDelay(this::cut, every, every, TimeUnit.MILLISECONDS);
    }

    /** Guards the batch and what the runtime's {@link Runtime#marks} reads: the input thread adds, the timer cuts. */
    public Object lock() {
        return lock;
    }

    /** Adds a change; cuts when the batch is full or {@code cutNow} says so (read under the lock). */
    public void add(ChangeEvent event, SourceRecord source, boolean refreshTtl, BooleanSupplier cutNow) {
        synchronized (lock) {
            path.add(event, source, refreshTtl);
            if (path.full() || cutNow.getAsBoolean()) {
                cut();
            }
        }
    }

    /** Hands what is pending to the write thread, if the runtime took anything since the last cut. */
    public void cut() {
        synchronized (lock) {
            M marks = runtime.marks();
            if (marks == null) {
                return;
            }
            UpdateBatch.Cut cut = path.cut();
            writer.execute(() -> {
                try {
                    runtime.written(marks, path.write(cut));
                } catch (InterruptedException e) {
                    // closing: what is not written is not committed either, and is read again
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    runtime.failed(marks, e);
                }
            });
        }
    }

    /**
     * Stops the timer and the write thread, waits up to {@code wait} for a write under way to give up,
     * then closes the write path. What is not written is not committed either.
     */
    public void close(Duration wait) {
        timer.shutdownNow();
        writer.shutdownNow();
        try {
            long deadline = System.nanoTime() + wait.toNanos();
            timer.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS);
            writer.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            path.close();
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(10));
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
