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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.metrics.Metrics;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.samza.metrics.Counter;
import org.apache.samza.metrics.Gauge;
import org.apache.samza.metrics.Metric;
import org.apache.samza.metrics.MetricsRegistryMap;
import org.apache.samza.metrics.Timer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The metrics port on Samza's own registry: group {@code nearline}, labels written into the name as
 * {@code |key|value} (Samza's metrics have none; the JMX exporter's rules read them back), counters,
 * timers and gauges where Samza's reporters find them, and the local runners' in-memory copy.
 */
class SamzaMetricsTest {

    @AfterEach
    void noMirrorLeftInstalled() {
        SamzaMetrics.mirrorInto(null);
    }

    @Test
    void labelsGoIntoTheReportedNameInTheOrderTheyWereAdded() {
        MetricsRegistryMap registry = new MetricsRegistryMap();
        Metrics table = new SamzaMetrics(registry).labelled("table", "public.items");
        table.labelled("partition", "0")
                .labelled("le", "0.5")
                .counter("freshness.bucket")
                .inc();
        table.labelled("reason", "MISSING_KEY").counter("events.rejected").inc(3);
        new SamzaMetrics(registry).counter("events.written").inc(2);

        Map<String, Metric> group = registry.getGroup("nearline");
        assertEquals(
                Set.of(
                        "freshness.bucket|table|public.items|partition|0|le|0.5",
                        "events.rejected|table|public.items|reason|MISSING_KEY",
                        "events.written"),
                new TreeSet<>(group.keySet()));
        assertEquals(3, ((Counter) group.get("events.rejected|table|public.items|reason|MISSING_KEY")).getCount());
        assertEquals(2, ((Counter) group.get("events.written")).getCount());
    }

    @Test
    void aGaugeIsReadWhenTheReporterReadsIt() {
        MetricsRegistryMap registry = new MetricsRegistryMap();
        AtomicLong through = new AtomicLong(1_000);
        new SamzaMetrics(registry).labelled("partition", "3").gauge("consistent-through", through::get);
        @SuppressWarnings("unchecked")
        Gauge<Long> gauge = (Gauge<Long>) registry.getGroup("nearline").get("consistent-through|partition|3");
        assertEquals(1_000L, gauge.getValue());
        through.set(2_500);
        assertEquals(2_500L, gauge.getValue(), "the value now, not the one at registration");
    }

    @Test
    void aHistogramIsASamzaTimer() {
        MetricsRegistryMap registry = new MetricsRegistryMap();
        new SamzaMetrics(registry)
                .labelled("table", "t")
                .histogram("write.latency-ms")
                .record(9);
        Timer timer = (Timer) registry.getGroup("nearline").get("write.latency-ms|table|t");
        assertEquals(List.of(9L), timer.getSnapshot().getValues());
    }

    /** A local run reads its summary from a copy; the copy keeps labels as the other runtimes name them. */
    @Test
    void aMirrorCopiesEveryMetricMadeAfterItIsInstalled() {
        MetricsRegistryMap registry = new MetricsRegistryMap();
        Metrics before = new SamzaMetrics(registry);
        before.counter("made.before").inc();

        InMemoryMetrics copy = new InMemoryMetrics();
        SamzaMetrics.mirrorInto(copy);
        Metrics port = new SamzaMetrics(registry).labelled("table", "t");
        port.counter("table.writes").inc(4);
        port.histogram("freshness-ms").record(12);
        port.gauge("consistent-through", () -> 42);

        assertEquals(4, copy.count("table.writes{table=t}"));
        assertEquals(12, copy.percentile("freshness-ms{table=t}", 50));
        assertEquals(42, copy.gaugeValue("consistent-through{table=t}").orElseThrow());
        assertTrue(
                copy.snapshot().keySet().stream().noneMatch(k -> k.startsWith("made.before")),
                copy.snapshot().toString());
        assertEquals(
                4,
                ((Counter) registry.getGroup("nearline").get("table.writes|table|t")).getCount(),
                "Samza counts too");
    }
}
