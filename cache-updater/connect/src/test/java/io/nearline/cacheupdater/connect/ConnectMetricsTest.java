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
package io.nearline.cacheupdater.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.junit.jupiter.api.Test;

/** The task's counters in the worker's registry, as Connect gives each task its plugin metrics. */
class ConnectMetricsTest {

    /** Task 1 of a connector of its own per test: a worker's counts go on across its tasks of one name. */
    private static Map<String, String> task1(String connector) {
        return Map.of("connector", connector, "task", "1");
    }

    /**
     * The worker closes the predecessor's plugin metrics after the next task has started and counted:
     * that task neither waits nor fails, and publishes at its first record after the close, its counter
     * going on from the predecessor's and including what it counted before.
     */
    @Test
    void aTaskStartedBeforeItsPredecessorStoppedPublishesAllItCountedOnceThePredecessorsMetricsAreClosed()
            throws Exception {
        try (Metrics registry = new Metrics()) {
            PluginMetricsImpl predecessor = new PluginMetricsImpl(
                    registry,
                    task1(
                            "aTaskStartedBeforeItsPredecessorStoppedPublishesAllItCountedOnceThePredecessorsMetricsAreClosed"));
            ConnectMetrics stale = new ConnectMetrics(predecessor);
            stale.counter("events.received").inc(5);
            stale.histogram("write.latency-ms").record(3);

            ConnectMetrics next = new ConnectMetrics(
                    new PluginMetricsImpl(
                            registry,
                            task1(
                                    "aTaskStartedBeforeItsPredecessorStoppedPublishesAllItCountedOnceThePredecessorsMetricsAreClosed")),
                    Duration.ZERO);
            next.counter("events.received").inc(2);
            next.histogram("write.latency-ms").record(7);
            assertEquals(5.0, value(registry, "events.received"), "the predecessor's, until closed");

            predecessor.close();
            next.counter("events.received").inc(1);
            next.histogram("write.latency-ms").record(4);

            assertEquals(8.0, value(registry, "events.received"), "5 before, 2 waiting, 1 after");
            assertEquals(
                    4.0, value(registry, "write.latency-ms-max"), "a histogram's samples from before are not kept");
        }
    }

    /**
     * A task whose input ended before the predecessor's metrics were closed gets no record to publish
     * at: its counts show at the next commit ({@code publishPending}), not never.
     */
    @Test
    void aTaskWithNoMoreInputPublishesWhatItCountedAtTheNextCommit() throws Exception {
        try (Metrics registry = new Metrics()) {
            PluginMetricsImpl predecessor =
                    new PluginMetricsImpl(registry, task1("aTaskWithNoMoreInputPublishesWhatItCountedAtTheNextCommit"));
            new ConnectMetrics(predecessor).counter("events.written").inc(5);
            ConnectMetrics next = new ConnectMetrics(
                    new PluginMetricsImpl(registry, task1("aTaskWithNoMoreInputPublishesWhatItCountedAtTheNextCommit")),
                    Duration.ZERO);
            next.counter("events.written").inc(7); // its last records, while the predecessor's metrics stay

            next.publishPending();
            assertEquals(5.0, value(registry, "events.written"), "still the predecessor's: nothing to publish over");

            predecessor.close();
            next.publishPending();
            assertEquals(12.0, value(registry, "events.written"), "published with no record after the close");
        }
    }

    /** Its control: while the predecessor's metrics stay, the next task's counts stay unpublished. */
    @Test
    void aPredecessorThatNeverStopsLeavesTheNextTaskCountingUnpublished() throws Exception {
        try (Metrics registry = new Metrics()) {
            new ConnectMetrics(new PluginMetricsImpl(
                            registry, task1("aPredecessorThatNeverStopsLeavesTheNextTaskCountingUnpublished")))
                    .counter("events.received")
                    .inc(5);
            ConnectMetrics next = new ConnectMetrics(
                    new PluginMetricsImpl(
                            registry, task1("aPredecessorThatNeverStopsLeavesTheNextTaskCountingUnpublished")),
                    Duration.ZERO);
            for (int i = 0; i < 3; i++) {
                next.counter("events.received").inc(2);
            }
            assertEquals(5.0, value(registry, "events.received"));
        }
    }

    /**
     * A task started again between two reads of its counter, having counted more than its predecessor:
     * the counter still only rises, so a reader adding the rises loses nothing. (When a successor started
     * from zero, a reader saw 5 then 7 and added 2 where 7 had been counted.)
     */
    @Test
    void aTaskStartedAgainGoesOnFromItsPredecessorsCount() throws Exception {
        try (Metrics registry = new Metrics()) {
            Map<String, String> task = task1("aTaskStartedAgainGoesOnFromItsPredecessorsCount");
            PluginMetricsImpl predecessor = new PluginMetricsImpl(registry, task);
            ConnectMetrics first = new ConnectMetrics(predecessor);
            first.counter("events.written").inc(5);
            double read = value(registry, "events.written");
            first.close();
            predecessor.close();
            ConnectMetrics next = new ConnectMetrics(new PluginMetricsImpl(registry, task), Duration.ZERO);
            next.counter("events.written").inc(7);
            assertEquals(12.0, value(registry, "events.written"));
            assertEquals(7.0, value(registry, "events.written") - read, "the rise is what the new task counted");
        }
    }

    @Test
    void aStoppedTaskLeavesNoMetrics() throws Exception {
        try (Metrics registry = new Metrics()) {
            ConnectMetrics task =
                    new ConnectMetrics(new PluginMetricsImpl(registry, task1("aStoppedTaskLeavesNoMetrics")));
            task.counter("events.received").inc(1);
            assertTrue(
                    registry.metrics().keySet().stream().anyMatch(m -> m.name().equals("events.received")));
            task.close();
            assertTrue(registry.metrics().keySet().stream()
                    .noneMatch(m -> m.group().equals("plugins")));
        }
    }

    /**
     * Labels are tags of the worker's metrics beside connector and task, so the JMX exporter's rules
     * read them as labels; a gauge is read when reported, and one still registered by the predecessor
     * is published at the next commit once that task's metrics are closed.
     */
    @Test
    void labelledMetricsCarryTheirTagsAndAGaugeWaitsForItsPredecessorsToClose() throws Exception {
        String connector = "labelledMetricsCarryTheirTagsAndAGaugeWaitsForItsPredecessorsToClose";
        try (Metrics registry = new Metrics()) {
            PluginMetricsImpl predecessor = new PluginMetricsImpl(registry, task1(connector));
            ConnectMetrics stale = new ConnectMetrics(predecessor);
            stale.labelled("table", "public.items").labelled("partition", "3").gauge("consistent-through", () -> 5);

            ConnectMetrics next = new ConnectMetrics(new PluginMetricsImpl(registry, task1(connector)), Duration.ZERO);
            io.nearline.common.metrics.Metrics items = next.labelled("table", "public.items");
            items.labelled("le", "0.5").counter("freshness.bucket").inc(2);
            long[] watermark = {7};
            items.labelled("partition", "3").gauge("consistent-through", () -> watermark[0]);

            MetricName bucket = registry.metrics().keySet().stream()
                    .filter(m -> m.name().equals("freshness.bucket"))
                    .findFirst()
                    .orElseThrow();
            assertEquals(
                    Map.of("connector", connector, "task", "1", "table", "public.items", "le", "0.5"), bucket.tags());
            assertEquals(2.0, registry.metrics().get(bucket).metricValue());
            assertEquals(5L, gauge(registry), "the predecessor's, until closed");

            predecessor.close();
            next.publishPending();
            watermark[0] = 9;
            assertEquals(9L, gauge(registry));
            next.close();
            assertTrue(
                    registry.metrics().keySet().stream().noneMatch(m -> m.name().equals("consistent-through")));
        }
    }

    private static Object gauge(Metrics registry) {
        return registry.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("consistent-through"))
                .findFirst()
                .orElseThrow()
                .getValue()
                .metricValue();
    }

    private static double value(Metrics registry, String name) {
        MetricName metric = registry.metrics().keySet().stream()
                .filter(m -> m.name().equals(name) && m.tags().get("task").equals("1"))
                .findFirst()
                .orElseThrow();
        return (Double) registry.metrics().get(metric).metricValue();
    }
}
