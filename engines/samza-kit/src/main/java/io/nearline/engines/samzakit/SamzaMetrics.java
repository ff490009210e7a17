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
package io.nearline.engines.samzakit;

import io.nearline.common.annotation.VisibleForTesting;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.metrics.Metrics;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.samza.metrics.Gauge;
import org.apache.samza.metrics.MetricsRegistry;
import org.apache.samza.metrics.Timer;

/**
 * The {@link Metrics} port on Samza: counters and timers in the task's metrics registry (group
 * {@code nearline}), where Samza's reporters (JMX, the metrics snapshot stream) find them. A timer
 * keeps only the values of the last {@value #WINDOW_MILLIS} ms, so its memory is bounded by the rate.
 *
 * <p>A local runner can {@link #mirrorInto} an in-memory copy to read its summary from; on a
 * cluster nothing installs one and nothing is copied.
 */
public final class SamzaMetrics implements Metrics {

    static final long WINDOW_MILLIS = 30_000;

    private static volatile InMemoryMetrics mirror;

    private final MetricsRegistry registry;
    /** This port's labels, written into each metric's name (Samza's metrics have none). */
    private final Map<String, String> labels;

    public SamzaMetrics(MetricsRegistry registry) {
        this(registry, Map.of());
    }

    private SamzaMetrics(MetricsRegistry registry, Map<String, String> labels) {
        this.registry = registry;
        this.labels = labels;
    }

    @Override
    public Metrics labelled(String key, String value) {
        return new SamzaMetrics(registry, Metrics.plusLabel(labels, key, value));
    }

    /**
     * The name Samza reports: labels appended as {@code |key|value}, characters JMX keeps as they are,
     * so that the JMX exporter's rules ({@code jobs/monitoring/samza-jmx-exporter.yaml}) turn them into
     * labels again: {@code freshness.bucket|table|public.items|le|0.5}.
     */
    static String reportedName(String name, Map<String, String> labels) {
        StringBuilder reported = new StringBuilder(name);
        labels.forEach((k, v) -> reported.append('|').append(k).append('|').append(v));
        return reported.toString();
    }

    @Override
    public void gauge(String name, LongSupplier value) {
        registry.newGauge("nearline", new Gauge<Long>(reportedName(name, labels), 0L) {
            @Override
            public Long getValue() {
                return value.getAsLong();
            }
        });
        InMemoryMetrics local = mirror;
        if (local != null) {
            local.gauge(Metrics.labelledName(name, labels), value);
        }
    }

    /** Every counter and timer created from now on in this JVM also adds to {@code local} (null: stop). */
    @VisibleForTesting
    public static void mirrorInto(InMemoryMetrics local) {
        mirror = local;
    }

    @Override
    public Counter counter(String name) {
        org.apache.samza.metrics.Counter samza = registry.newCounter("nearline", reportedName(name, labels));
        InMemoryMetrics local = mirror;
        if (local == null) {
            return samza::inc;
        }
        Counter mine = local.counter(Metrics.labelledName(name, labels));
        return n -> {
            samza.inc(n);
            mine.inc(n);
        };
    }

    @Override
    public Histogram histogram(String name) {
        Timer samza = registry.newTimer(
                "nearline", new Timer(reportedName(name, labels), WINDOW_MILLIS, System::currentTimeMillis));
        InMemoryMetrics local = mirror;
        if (local == null) {
            return samza::update;
        }
        Histogram mine = local.histogram(Metrics.labelledName(name, labels));
        return v -> {
            samza.update(v);
            mine.record(v);
        };
    }
}
