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
package io.nearline.jobs.kit.console;

import java.io.PrintStream;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * A progress line for long work, rewritten once a second on the given stream (stderr, normally) while
 * the work runs; silent for work that ends within the first second. Counts either through
 * {@link #step()} or from a supplier (a metric, say).
 */
public final class Progress implements AutoCloseable {

    private final LongAdder steps = new LongAdder();
    private final Thread ticker;
    private final PrintStream out;
    private volatile boolean printed;

    public Progress(String label, long total, PrintStream out) {
        this(label, total, null, out);
    }

    /** @param done where the count comes from; null counts {@link #step()} calls */
    public Progress(String label, long total, LongSupplier done, PrintStream out) {
        this.out = out;
        LongSupplier count = done != null ? done : steps::sum;
        long started = System.nanoTime();
        this.ticker = new Thread(
                () -> {
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            Thread.sleep(1000);
                            long n = count.getAsLong();
                            double seconds = (System.nanoTime() - started) / 1e9;
                            out.printf(
                                    "\r  %s: %,d / %,d (%d%%), %,.0f/s   ",
                                    label, n, total, total == 0 ? 100 : Math.min(100, n * 100 / total), n / seconds);
                            printed = true;
                        }
                    } catch (InterruptedException e) {
                        // finished
                    }
                },
                "progress");
        ticker.setDaemon(true);
        ticker.start();
    }

    public void step() {
        steps.increment();
    }

    @Override
    public void close() {
        ticker.interrupt();
        try {
            ticker.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (printed) {
            out.println();
        }
    }
}
