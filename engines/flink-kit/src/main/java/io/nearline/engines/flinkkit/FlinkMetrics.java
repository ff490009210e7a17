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
package io.nearline.engines.flinkkit;

import io.nearline.common.annotation.VisibleForTesting;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.metrics.Metrics;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * The {@link Metrics} port on Flink: counters and histograms in the operator's metric group (group
 * {@code nearline}), where Flink's reporters (Prometheus, JMX) and its REST API find them. Histograms
 * keep a sliding window of the last {@value #HISTOGRAM_WINDOW} values, so memory stays bounded.
 *
 * <p>A local runner that starts jobs in its own JVM can {@link #mirrorInto} an in-memory copy to
 * read its summary from; on a cluster nothing installs one and nothing is copied.
 */
public final class FlinkMetrics implements Metrics {

    static final int HISTOGRAM_WINDOW = 10_000;

    private static volatile InMemoryMetrics mirror;

    private final MetricGroup group;
    /** This port's labels, for the names of the in-memory copy. */
    private final Map<String, String> labels;

    public FlinkMetrics(MetricGroup group) {
        this(group.addGroup("nearline"), Map.of());
    }

    private FlinkMetrics(MetricGroup group, Map<String, String> labels) {
        this.group = group;
        this.labels = labels;
    }

    /** A key-value group: Flink's reporters make it a label (Prometheus: {@code table="public.items"}). */
    @Override
    public Metrics labelled(String key, String value) {
        return new FlinkMetrics(group.addGroup(key, value), Metrics.plusLabel(labels, key, value));
    }

    @Override
    public void gauge(String name, LongSupplier value) {
        group.gauge(name, (Gauge<Long>) value::getAsLong);
        InMemoryMetrics local = mirror;
        if (local != null) {
            local.gauge(Metrics.labelledName(name, labels), value);
        }
    }

    /** Every counter and histogram created from now on in this JVM also adds to {@code local} (null: stop). */
    @VisibleForTesting
    public static void mirrorInto(InMemoryMetrics local) {
        mirror = local;
    }

    @Override
    public Counter counter(String name) {
        org.apache.flink.metrics.Counter flink = group.counter(name);
        InMemoryMetrics local = mirror;
        if (local == null) {
            return flink::inc;
        }
        Counter mine = local.counter(Metrics.labelledName(name, labels));
        return n -> {
            flink.inc(n);
            mine.inc(n);
        };
    }

    @Override
    public Histogram histogram(String name) {
        org.apache.flink.metrics.Histogram flink =
                group.histogram(name, new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        InMemoryMetrics local = mirror;
        if (local == null) {
            return flink::update;
        }
        Histogram mine = local.histogram(Metrics.labelledName(name, labels));
        return v -> {
            flink.update(v);
            mine.record(v);
        };
    }
}
