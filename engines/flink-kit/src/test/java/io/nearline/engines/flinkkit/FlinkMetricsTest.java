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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.metrics.Metrics;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The metrics port on Flink: what it registers in the operator's group, and the local runners' copy. */
class FlinkMetricsTest {

    /** A metric group that keeps what is registered in it under its path ("nearline.table=t.write.applied"). */
    private static final class Recording extends UnregisteredMetricsGroup {
        private final String path;
        private final Map<String, Metric> registered;

        Recording(String path, Map<String, Metric> registered) {
            this.path = path;
            this.registered = registered;
        }

        @Override
        public Counter counter(String name) {
            return counter(name, new SimpleCounter());
        }

        @Override
        public <C extends Counter> C counter(String name, C counter) {
            registered.put(path + name, counter);
            return counter;
        }

        @Override
        public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
            registered.put(path + name, gauge);
            return gauge;
        }

        @Override
        public <H extends Histogram> H histogram(String name, H histogram) {
            registered.put(path + name, histogram);
            return histogram;
        }

        @Override
        public MetricGroup addGroup(String name) {
            return new Recording(path + name + ".", registered);
        }

        @Override
        public MetricGroup addGroup(String key, String value) {
            return new Recording(path + key + "=" + value + ".", registered);
        }
    }

    private final Map<String, Metric> registered = new TreeMap<>();
    private final Metrics metrics = new FlinkMetrics(new Recording("", registered));

    @AfterEach
    void noMirror() {
        FlinkMetrics.mirrorInto(null);
    }

    @Test
    void aCounterCountsInFlinksGroupUnderNearline() {
        metrics.counter("events.received").inc(3);
        assertEquals(3, ((Counter) registered.get("nearline.events.received")).getCount());
    }

    @Test
    void aLabelIsAKeyValueGroupSoReportersMakeItALabel() {
        metrics.labelled("table", "public.items").counter("write.applied").inc();
        assertEquals(1, ((Counter) registered.get("nearline.table=public.items.write.applied")).getCount());
    }

    @Test
    void aGaugeIsReadWhenTheReporterAsks() {
        AtomicLong lag = new AtomicLong();
        metrics.gauge("consistent-through", lag::get);
        lag.set(42);
        assertEquals(42L, ((Gauge<?>) registered.get("nearline.consistent-through")).getValue());
    }

    @Test
    void aHistogramKeepsABoundedWindow() {
        Metrics.Histogram latency = metrics.histogram("write.latency-ms");
        for (int i = 0; i < FlinkMetrics.HISTOGRAM_WINDOW + 5; i++) {
            latency.record(i);
        }
        Histogram flink = (Histogram) registered.get("nearline.write.latency-ms");
        assertEquals(FlinkMetrics.HISTOGRAM_WINDOW + 5, flink.getCount());
        assertEquals(FlinkMetrics.HISTOGRAM_WINDOW, flink.getStatistics().size(), "the oldest values dropped");
    }

    @Test
    void aLocalRunnerReadsACopyWithTheLabelsInTheName() {
        InMemoryMetrics local = new InMemoryMetrics();
        FlinkMetrics.mirrorInto(local);
        Metrics labelled = metrics.labelled("table", "t");
        labelled.counter("write.applied").inc(2);
        labelled.histogram("freshness-ms").record(7);
        AtomicLong through = new AtomicLong(5);
        labelled.gauge("consistent-through", through::get);
        through.set(9);
        Map<String, String> labels = Map.of("table", "t");
        assertEquals(2, local.count(Metrics.labelledName("write.applied", labels)));
        assertEquals(7, local.percentile(Metrics.labelledName("freshness-ms", labels), 50));
        assertEquals(
                9,
                local.gaugeValue(Metrics.labelledName("consistent-through", labels))
                        .orElseThrow());
        assertEquals(2, ((Counter) registered.get("nearline.table=t.write.applied")).getCount(), "Flink's too");
    }

    @Test
    void withoutALocalRunnerNothingIsCopied() {
        InMemoryMetrics local = new InMemoryMetrics();
        FlinkMetrics.mirrorInto(local);
        FlinkMetrics.mirrorInto(null);
        metrics.counter("events.received").inc();
        assertTrue(local.snapshot().isEmpty(), local.snapshot().toString());
    }
}
