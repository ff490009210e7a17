package io.nearline.engine.samza;

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.metrics.Metrics;
import org.apache.samza.metrics.MetricsRegistry;

/**
 * The {@link Metrics} port on Samza: counters and timers in the task's metrics registry (group
 * {@code nearline}, so they reach Samza's reporters) that also add to {@link #local()} for local runs.
 */
public final class SamzaMetrics implements Metrics {

    private static final InMemoryMetrics LOCAL = new InMemoryMetrics();

    private final MetricsRegistry registry;

    public SamzaMetrics(MetricsRegistry registry) {
        this.registry = registry;
    }

    /** The counters and timers of every task in this JVM, summed. */
    public static InMemoryMetrics local() {
        return LOCAL;
    }

    @Override
    public Counter counter(String name) {
        org.apache.samza.metrics.Counter samza = registry.newCounter("nearline", name);
        Counter mine = LOCAL.counter(name);
        return n -> {
            samza.inc(n);
            mine.inc(n);
        };
    }

    @Override
    public Histogram histogram(String name) {
        org.apache.samza.metrics.Timer samza = registry.newTimer("nearline", name);
        Histogram mine = LOCAL.histogram(name);
        return v -> {
            samza.update(v);
            mine.record(v);
        };
    }
}
