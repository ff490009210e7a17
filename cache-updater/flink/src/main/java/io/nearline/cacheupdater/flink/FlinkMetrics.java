package io.nearline.cacheupdater.flink;

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.metrics.Metrics;
import org.apache.flink.metrics.MetricGroup;

/**
 * The {@link Metrics} port on Flink: each counter is a Flink counter in the operator's metric group
 * (so it shows in Flink's metric reporters) and also adds to {@link #local()}, which a local run in
 * this JVM (replay, tests) reads for its summary.
 */
final class FlinkMetrics implements Metrics {

    private static final InMemoryMetrics LOCAL = new InMemoryMetrics();

    private final MetricGroup group;

    FlinkMetrics(MetricGroup group) {
        this.group = group.addGroup("nearline");
    }

    /** The counters of every task in this JVM, summed. */
    static InMemoryMetrics local() {
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
}
