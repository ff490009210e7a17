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

import java.util.function.LongSupplier;

/**
 * Measures the steady rate of a growing count: it samples the count every few milliseconds and keeps
 * the first sample at or past 10 % and the first at or past 90 % of the expected total, so that
 * start-up and the tail do not distort the figure. The rate is the counts those two samples saw
 * apart divided by the time between them (a count that jumps past a mark is not rounded to it).
 * Given a {@link CpuUse}, it takes the CPU times at the same two samples, for the cores the rate cost.
 */
public final class RateMeter implements AutoCloseable {

    private final Thread sampler;
    private volatile long at10 = -1;
    private volatile long at90 = -1;
    private volatile long count10;
    private volatile long count90;
    private volatile CpuUse.Snapshot cpu10;
    private volatile CpuUse.Snapshot cpu90;
    private final long total;
    private final CpuUse cpu;

    public RateMeter(long total, LongSupplier count) {
        this(total, count, null);
    }

    /** @param cpu whose CPU times to take at the two samples; null for none */
    public RateMeter(long total, LongSupplier count, CpuUse cpu) {
        this.total = total;
        this.cpu = cpu;
        this.sampler = new Thread(
                () -> {
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            long n = count.getAsLong();
                            long now = System.nanoTime();
                            if (at10 < 0 && n >= total / 10) {
                                cpu10 = cpu == null ? null : cpu.snapshot();
                                count10 = n;
                                at10 = now;
                            }
                            if (at90 < 0 && n >= total * 9 / 10) {
                                cpu90 = cpu == null ? null : cpu.snapshot();
                                count90 = n;
                                at90 = now;
                                return;
                            }
                            Thread.sleep(5);
                        }
                    } catch (InterruptedException e) {
                        // stopped
                    }
                },
                "rate-meter");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Events per second between 10 % and 90 % of the total; NaN if the count never got there. */
    public double steadyRate() {
        if (at10 < 0 || at90 <= at10) {
            return Double.NaN;
        }
        return (count90 - count10) / ((at90 - at10) / 1e9);
    }

    /** The cores used between the same two samples as {@link #steadyRate}; null without a {@link CpuUse} or a rate. */
    public CpuUse.Cores steadyCores() {
        return cpu == null || cpu10 == null || cpu90 == null ? null : cpu.between(cpu10, cpu90);
    }

    @Override
    public void close() {
        sampler.interrupt();
    }
}
