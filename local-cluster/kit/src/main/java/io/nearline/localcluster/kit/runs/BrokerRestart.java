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
package io.nearline.localcluster.kit.runs;

import io.nearline.localcluster.kit.options.LocalRunOptions;
import io.nearline.localcluster.kit.processes.LocalBroker;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The broker fault of a replay ({@code --broker-restart-at F}): once the running job has taken a
 * fraction F of the input, the broker is stopped and started again on the same addresses with the
 * same data, under the job. {@link #close} waits for a restart under way; {@link #happened} says
 * whether it came at all (a job that finished first never saw it, and the run must not pass for one
 * that did).
 */
public final class BrokerRestart implements AutoCloseable {

    private final Thread watcher;
    private volatile boolean restarting;
    private volatile boolean happened;
    private volatile RuntimeException failed;

    private BrokerRestart(LocalBroker broker, long target, long total, LongSupplier taken) {
        watcher = new Thread(
                () -> {
                    try {
                        while (taken.getAsLong() < target) {
                            Thread.sleep(20);
                        }
                        long at = taken.getAsLong();
                        long stopped = System.nanoTime();
                        restarting = true;
                        broker.restart();
                        happened = true;
                        System.out.printf(
                                "%n  >> restarted the broker under the job after %,d of %,d input records (down %,d ms)%n",
                                at, total, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped));
                    } catch (InterruptedException ended) {
                        Thread.currentThread().interrupt(); // the run ended first
                    } catch (Exception e) {
                        failed = new IllegalStateException("the broker did not come back: " + e.getMessage(), e);
                    }
                },
                "broker-restart");
        watcher.setDaemon(true);
        watcher.start();
    }

    /**
     * Restarts {@code broker} once {@code taken} reaches the run's {@code --broker-restart-at} share of
     * {@code total}; null (nothing to close) when the run asked for no restart.
     */
    public static BrokerRestart when(LocalRunOptions run, LocalBroker broker, long total, LongSupplier taken) {
        return run.brokerRestartAt == null
                ? null
                : new BrokerRestart(broker, Math.max(1, (long) Math.ceil(run.brokerRestartAt * total)), total, taken);
    }

    public boolean happened() {
        return happened;
    }

    /** Stops waiting; if a restart is under way, waits for it, and rethrows its failure. */
    @Override
    public void close() {
        if (!restarting) {
            watcher.interrupt();
        }
        try {
            watcher.join(TimeUnit.MINUTES.toMillis(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failed != null) {
            throw failed;
        }
    }
}
