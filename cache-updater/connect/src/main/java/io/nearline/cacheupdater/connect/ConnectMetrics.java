package io.nearline.cacheupdater.connect;

import io.nearline.common.metrics.Metrics;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Max;

/**
 * The {@link Metrics} port on Kafka Connect: each counter and histogram a sensor in the task's plugin
 * metrics (Kafka 4.1's {@code PluginMetrics}), under the jobs' names. The worker's reporters publish
 * them; with JMX they are the attributes of {@code kafka.connect:type=plugins,connector=NAME,task=N}
 * (a counter {@code events.written}, a histogram {@code write.latency-ms} as
 * {@code write.latency-ms-avg} and {@code -max}).
 */
final class ConnectMetrics implements Metrics {

    /** Sensor names are the worker's, shared by every task in it: each task's get a prefix of their own. */
    private static final AtomicLong INSTANCES = new AtomicLong();

    private final PluginMetrics plugin;
    private final String prefix = "nearline-" + INSTANCES.incrementAndGet() + "-";
    private final Map<String, Sensor> sensors = new ConcurrentHashMap<>();

    ConnectMetrics(PluginMetrics plugin) {
        this.plugin = plugin;
    }

    @Override
    public Counter counter(String name) {
        Sensor sensor = sensors.computeIfAbsent(name, n -> {
            Sensor s = plugin.addSensor(prefix + n);
            s.add(
                    plugin.metricName(n, "Nearline counter " + n + " (total).", new LinkedHashMap<>()),
                    new CumulativeSum());
            return s;
        });
        return sensor::record;
    }

    @Override
    public Histogram histogram(String name) {
        Sensor sensor = sensors.computeIfAbsent(name, n -> {
            Sensor s = plugin.addSensor(prefix + n);
            s.add(plugin.metricName(n + "-avg", "Nearline " + n + ": average.", new LinkedHashMap<>()), new Avg());
            s.add(plugin.metricName(n + "-max", "Nearline " + n + ": largest.", new LinkedHashMap<>()), new Max());
            return s;
        });
        return sensor::record;
    }
}
