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
package io.nearline.common.metrics;

import java.util.Arrays;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/** Thread-safe counters in memory, readable by name: the default for tools, summaries and tests. */
public final class InMemoryMetrics implements Metrics {

    private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();
    private final Map<String, Samples> histograms = new ConcurrentHashMap<>();
    private final Map<String, LongSupplier> gauges = new ConcurrentHashMap<>();
    private final Set<String> countersAskedForSinceReset = ConcurrentHashMap.newKeySet();

    /** Every recorded value, for exact percentiles: fine for the runs a local JVM does (millions of values). */
    private static final class Samples {
        private long[] values = new long[1024];
        private int size;

        synchronized void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        synchronized long[] sorted() {
            long[] copy = Arrays.copyOf(values, size);
            Arrays.sort(copy);
            return copy;
        }

        synchronized void clear() {
            size = 0;
        }
    }

    @Override
    public Counter counter(String name) {
        countersAskedForSinceReset.add(name);
        LongAdder adder = counters.computeIfAbsent(name, n -> new LongAdder());
        return adder::add;
    }

    @Override
    public Histogram histogram(String name) {
        return histograms.computeIfAbsent(name, n -> new Samples())::add;
    }

    @Override
    public void gauge(String name, LongSupplier value) {
        gauges.put(name, value);
    }

    /** A gauge's value now; empty if no gauge of that name was made. */
    public OptionalLong gaugeValue(String name) {
        LongSupplier gauge = gauges.get(name);
        return gauge == null ? OptionalLong.empty() : OptionalLong.of(gauge.getAsLong());
    }

    /** Every gauge's name, sorted. */
    public Set<String> gaugeNames() {
        return new TreeSet<>(gauges.keySet());
    }

    /** The recorded values of a histogram, sorted (empty if none). */
    public long[] values(String name) {
        Samples samples = histograms.get(name);
        return samples == null ? new long[0] : samples.sorted();
    }

    /** The {@code p}-th percentile (0 to 100, nearest rank) of a histogram; -1 when it has no values. */
    public long percentile(String name, double p) {
        long[] sorted = values(name);
        if (sorted.length == 0) {
            return -1;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** Current value of a counter; 0 if it was never created. */
    public long count(String name) {
        LongAdder adder = counters.get(name);
        return adder == null ? 0 : adder.sum();
    }

    /** Forgets the values a histogram recorded so far (a measurement that leaves out its warm-up). */
    public void clear(String histogram) {
        Samples samples = histograms.get(histogram);
        if (samples != null) {
            samples.clear();
        }
    }

    /**
     * Whether something asked for this counter since the last {@link #reset}: a job in this JVM has
     * opened the operator or task that counts it.
     */
    public boolean counterAskedFor(String name) {
        return countersAskedForSinceReset.contains(name);
    }

    /** Sets every counter back to 0 (a local runner starting a new run in the same JVM). */
    public void reset() {
        countersAskedForSinceReset.clear();
        counters.values().forEach(LongAdder::reset);
        histograms.values().forEach(Samples::clear);
        gauges.clear();
    }

    /** Every counter by name, sorted. */
    public Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        counters.forEach((name, adder) -> out.put(name, adder.sum()));
        return out;
    }
}
