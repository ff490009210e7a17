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
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MeasurableStat;
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
    private final String prefix = "nearline-" + INSTANCES.incrementAndGet() + "-";
    private final Map<String, PublishedSensor> sensors = new ConcurrentHashMap<>();

    /** How often a task whose metrics are not yet published tries again (at a record, never in a thread of its own). */
    private final Duration retryEvery;

    ConnectMetrics(PluginMetrics plugin) {
        this(plugin, Duration.ofMillis(500));
    }

    ConnectMetrics(PluginMetrics plugin, Duration retryEvery) {
        this.plugin = plugin;
        this.retryEvery = retryEvery;
    }

    @Override
    public Counter counter(String name) {
        PublishedSensor sensor = sensors.computeIfAbsent(name, n -> new PublishedSensor(n, true)
                .carrying(n)
                .with(n, "Nearline counter " + n + " (total).", new CumulativeSum()));
        return sensor::record;
    }

    @Override
    public Histogram histogram(String name) {
        PublishedSensor sensor = sensors.computeIfAbsent(name, n -> new PublishedSensor(n, false)
                .with(n + "-avg", "Nearline " + n + ": average.", new Avg())
                .with(n + "-max", "Nearline " + n + ": largest.", new Max()));
        return sensor::record;
    }

    /**
     * Publishes what is not yet published, if the predecessor's metrics are gone now. A counter also
     * tries at each record, but a task whose input ended while it waited gets no more records: called
     * at each commit, so its counts still show.
     */
    void publishPending() {
        sensors.values().forEach(PublishedSensor::tryPublish);
    }

    /** Takes this task's metrics out of the worker's registry (the task stops). */
    void close() {
        sensors.keySet().forEach(n -> plugin.removeSensor(prefix + n));
        sensors.clear();
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
            MetricName id = plugin.metricName(metric, "", new LinkedHashMap<>());
            counted = COUNTED.computeIfAbsent(id.tags() + "/" + metric, k -> new DoubleAdder());
            unpublished.add(counted.sum());
            return this;
        }

        PublishedSensor with(String metric, String description, MeasurableStat stat) {
            unregistered.put(plugin.metricName(metric, description, new LinkedHashMap<>()), stat);
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
