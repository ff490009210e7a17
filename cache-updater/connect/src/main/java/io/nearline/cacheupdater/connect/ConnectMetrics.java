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

import io.nearline.common.metrics.Metrics;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.function.LongSupplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.MeasurableStat;
import org.apache.kafka.common.metrics.MetricValueProvider;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Max;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Metrics} port on Kafka Connect: each counter and histogram a sensor in the task's plugin
 * metrics (Kafka 4.1's {@code PluginMetrics}), under the jobs' names. The worker's reporters publish
 * them; with JMX they are the attributes of {@code kafka.connect:type=plugins,connector=NAME,task=N}
 * (a counter {@code events.written}, a histogram {@code write.latency-ms} as
 * {@code write.latency-ms-avg} and {@code -max}).
 *
 * <p>A task's counters go on from its predecessor's (the task of the same connector and number that
 * ran before it in this worker): as a Prometheus counter, a count only falls when the worker's process
 * starts again, so a reader that adds up the rises never loses what a task started again counted
 * between two reads.
 *
 * <p>A task started while the worker still stops its predecessor (a rebalance, a connector upgraded in
 * place, a broker restart) finds that task's metrics, under the same connector and task number, still
 * registered. It does not wait for them: it counts on, and publishes its metrics at the first record
 * after the predecessor's are closed, its counters including what it counted before. (A histogram's
 * samples from before are not kept: it reports recent values.)
 */
final class ConnectMetrics implements Metrics {

    /**
     * What every task of a connector and number has counted in this worker, by counter: where a task's
     * counter starts from. (The plugin's classes are the worker's, loaded once.)
     */
    private static final Map<String, DoubleAdder> COUNTED = new ConcurrentHashMap<>();

    /** Sensor names are the worker's, shared by every task in it: each task's get a prefix of their own. */
    private static final AtomicLong INSTANCES = new AtomicLong();

    private static final Logger LOG = LoggerFactory.getLogger(ConnectMetrics.class);

    private final PluginMetrics plugin;
    private final String prefix;
    /** The task's sensors, by name and labels (shared by the labelled views of one task's metrics). */
    private final Map<String, PublishedSensor> sensors;
    /** The task's gauges, by metric: registered or waiting for the predecessor's to go. */
    private final Map<MetricName, Boolean> gauges;

    private final Map<MetricName, MetricValueProvider<?>> gaugeValues;
    /** This view's labels: tags of every metric made from it, besides the worker's connector and task. */
    private final Map<String, String> labels;

    /** How often a task whose metrics are not yet published tries again (at a record, never in a thread of its own). */
    private final Duration retryEvery;

    ConnectMetrics(PluginMetrics plugin) {
        this(plugin, Duration.ofMillis(500));
    }

    ConnectMetrics(PluginMetrics plugin, Duration retryEvery) {
        this.plugin = plugin;
        this.retryEvery = retryEvery;
        this.prefix = "nearline-" + INSTANCES.incrementAndGet() + "-";
        this.sensors = new ConcurrentHashMap<>();
        this.gauges = new ConcurrentHashMap<>();
        this.gaugeValues = new ConcurrentHashMap<>();
        this.labels = Map.of();
    }

    private ConnectMetrics(ConnectMetrics task, Map<String, String> labels) {
        this.plugin = task.plugin;
        this.retryEvery = task.retryEvery;
        this.prefix = task.prefix;
        this.sensors = task.sensors;
        this.gauges = task.gauges;
        this.gaugeValues = task.gaugeValues;
        this.labels = labels;
    }

    /** Labels are the metrics' tags: with JMX, more keys of the MBean's name after connector and task. */
    @Override
    public Metrics labelled(String key, String value) {
        return new ConnectMetrics(this, Metrics.plusLabel(labels, key, value));
    }

    @Override
    public Counter counter(String name) {
        PublishedSensor sensor =
                sensors.computeIfAbsent(Metrics.labelledName(name, labels), n -> new PublishedSensor(n, true)
                        .carrying(name)
                        .with(name, "Nearline counter " + name + " (total).", new CumulativeSum()));
        return sensor::record;
    }

    @Override
    public Histogram histogram(String name) {
        PublishedSensor sensor =
                sensors.computeIfAbsent(Metrics.labelledName(name, labels), n -> new PublishedSensor(n, false)
                        .with(name + "-avg", "Nearline " + name + ": average.", new Avg())
                        .with(name + "-max", "Nearline " + name + ": largest.", new Max()));
        return sensor::record;
    }

    @Override
    public void gauge(String name, LongSupplier value) {
        MetricName metric = plugin.metricName(name, "Nearline " + name + ".", new LinkedHashMap<>(labels));
        gaugeValues.put(metric, (Gauge<Long>) (config, now) -> value.getAsLong());
        gauges.put(metric, false);
        publishGauges();
    }

    /**
     * Publishes what is not yet published, if the predecessor's metrics are gone now. A counter also
     * tries at each record, but a task whose input ended while it waited gets no more records: called
     * at each commit, so its counts still show.
     */
    void publishPending() {
        sensors.values().forEach(PublishedSensor::tryPublish);
        publishGauges();
    }

    private void publishGauges() {
        gauges.forEach((metric, published) -> {
            if (!published) {
                try {
                    plugin.addMetric(metric, gaugeValues.get(metric));
                    gauges.put(metric, true);
                } catch (IllegalArgumentException stillThere) { // the predecessor's: at the next commit
                }
            }
        });
    }

    /** Takes this task's metrics out of the worker's registry (the task stops). */
    void close() {
        sensors.keySet().forEach(n -> plugin.removeSensor(prefix + n));
        sensors.clear();
        gauges.forEach((metric, published) -> {
            if (published) {
                plugin.removeMetric(metric);
            }
        });
        gauges.clear();
    }

    /** One sensor in the worker's registry, and the metrics it has still to register there. */
    private final class PublishedSensor {
        private final String name;
        private final Sensor sensor;
        /** A counter keeps what it counted before its metric was published; a histogram does not. */
        private final boolean keepsUnpublished;

        private final Map<MetricName, MeasurableStat> unregistered = new LinkedHashMap<>();
        private final DoubleAdder unpublished = new DoubleAdder();
        /** A counter's count over every task of its connector and number in this worker. */
        private DoubleAdder counted;

        private volatile boolean published;
        private long nextTry;
        /** The task's tags, once it has warned that its metrics wait for its predecessor's. */
        private Map<String, String> waitedAs;

        PublishedSensor(String name, boolean keepsUnpublished) {
            this.name = name;
            this.sensor = plugin.addSensor(prefix + name);
            this.keepsUnpublished = keepsUnpublished;
        }

        /** Starts this counter where its predecessors' ended: recorded with what this task counts first. */
        PublishedSensor carrying(String metric) {
            MetricName id = plugin.metricName(metric, "", new LinkedHashMap<>(labels));
            counted = COUNTED.computeIfAbsent(id.tags() + "/" + metric, k -> new DoubleAdder());
            unpublished.add(counted.sum());
            return this;
        }

        PublishedSensor with(String metric, String description, MeasurableStat stat) {
            unregistered.put(plugin.metricName(metric, description, new LinkedHashMap<>(labels)), stat);
            tryPublish();
            return this;
        }

        void record(double value) {
            if (counted != null) {
                counted.add(value);
            }
            if (published) {
                sensor.record(value);
            } else if (keepsUnpublished) {
                unpublished.add(value);
                tryPublish(); // records it with the rest, if published now
            } else if (tryPublish()) {
                sensor.record(value);
            }
        }

        /** Registers what is left if the predecessor's metrics are gone; returns whether all are published. */
        private synchronized boolean tryPublish() {
            if (!published) {
                long now = System.nanoTime();
                if (now - nextTry < 0) {
                    return false;
                }
                var it = unregistered.entrySet().iterator();
                while (it.hasNext()) {
                    var metric = it.next();
                    try {
                        sensor.add(metric.getKey(), metric.getValue());
                        it.remove();
                    } catch (IllegalArgumentException stillThere) { // the predecessor's, until the worker closes them
                        nextTry = now + retryEvery.toNanos();
                        if (waitedAs == null) {
                            waitedAs = metric.getKey().tags();
                            LOG.warn(
                                    "metric {} of {} is still registered by an earlier task: published once that "
                                            + "task's metrics are closed",
                                    metric.getKey().name(),
                                    metric.getKey().tags());
                        }
                        return false;
                    }
                }
                if (waitedAs != null) {
                    LOG.info("metric {} of {} published", name, waitedAs);
                }
                published = true;
            }
            // what was counted before publishing, and by a record that raced with it
            double held = unpublished.sumThenReset();
            if (held != 0) {
                sensor.record(held);
            }
            return true;
        }
    }
}
