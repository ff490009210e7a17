package io.nearline.common.metrics;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Thread-safe counters in memory, readable by name: the default for tools, summaries and tests. */
public final class InMemoryMetrics implements Metrics {

    private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();

    @Override
    public Counter counter(String name) {
        LongAdder adder = counters.computeIfAbsent(name, n -> new LongAdder());
        return adder::add;
    }

    /** Current value of a counter; 0 if it was never created. */
    public long count(String name) {
        LongAdder adder = counters.get(name);
        return adder == null ? 0 : adder.sum();
    }

    /** Sets every counter back to 0 (a local runner starting a new run in the same JVM). */
    public void reset() {
        counters.values().forEach(LongAdder::reset);
    }

    /** Every counter by name, sorted. */
    public Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        counters.forEach((name, adder) -> out.put(name, adder.sum()));
        return out;
    }
}
