package io.nearline.engine.flink;

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.metrics.Metrics;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * The {@link Metrics} port on Flink: counters and histograms in the operator's metric group (group
 * {@code nearline}, so they reach Flink's reporters) that also add to {@link #local()}, which a local
 * run in this JVM (replay, tests) reads for its summary.
 */
public final class FlinkMetrics implements Metrics {

    private static final InMemoryMetrics LOCAL = new InMemoryMetrics();

    private final MetricGroup group;

    public FlinkMetrics(MetricGroup group) {
        this.group = group.addGroup("nearline");
    }

    /** The counters and histograms of every task in this JVM, summed. */
    public static InMemoryMetrics local() {
        return LOCAL;
    }

    @Override
    public Counter counter(String name) {
        org.apache.flink.metrics.Counter flink = group.counter(name);
        Counter mine = LOCAL.counter(name);
        return n -> {
            flink.inc(n);
            mine.inc(n);
        };
    }

    @Override
    public Histogram histogram(String name) {
        org.apache.flink.metrics.Histogram flink = group.histogram(name, new DescriptiveStatisticsHistogram(10_000));
        Histogram mine = LOCAL.histogram(name);
        return v -> {
            flink.update(v);
            mine.record(v);
        };
    }
}
