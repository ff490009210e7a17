package io.nearline.cacheupdater.connect;

import io.nearline.common.metrics.Metrics;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
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
 */
final class ConnectMetrics implements Metrics {

    /** Sensor names are the worker's, shared by every task in it: each task's get a prefix of their own. */
    private static final AtomicLong INSTANCES = new AtomicLong();

    private static final Logger LOG = LoggerFactory.getLogger(ConnectMetrics.class);

    private final PluginMetrics plugin;
    private final String prefix = "nearline-" + INSTANCES.incrementAndGet() + "-";
    private final Map<String, Sensor> sensors = new ConcurrentHashMap<>();

    private final Duration registerWait;

    ConnectMetrics(PluginMetrics plugin) {
        this(plugin, Duration.ofSeconds(15));
    }

    ConnectMetrics(PluginMetrics plugin, Duration registerWait) {
        this.plugin = plugin;
        this.registerWait = registerWait;
    }

    @Override
    public Counter counter(String name) {
        Sensor sensor = sensors.computeIfAbsent(name, n -> {
            Sensor s = plugin.addSensor(prefix + n);
            add(s, n, "Nearline counter " + n + " (total).", new CumulativeSum());
            return s;
        });
        return sensor::record;
    }

    @Override
    public Histogram histogram(String name) {
        Sensor sensor = sensors.computeIfAbsent(name, n -> {
            Sensor s = plugin.addSensor(prefix + n);
            add(s, n + "-avg", "Nearline " + n + ": average.", new Avg());
            add(s, n + "-max", "Nearline " + n + ": largest.", new Max());
            return s;
        });
        return sensor::record;
    }

    /** Takes this task's metrics out of the worker's registry (the task stops). */
    void close() {
        sensors.keySet().forEach(n -> plugin.removeSensor(prefix + n));
        sensors.clear();
    }

    /**
     * A task restarted while the worker still stops its predecessor (after a broker restart, the
     * worker's rebalance) finds that task's metrics under the same connector and task number until the
     * predecessor's are closed: it waits for them to go. If they never do, the task runs and counts, but
     * that metric is not published (a gap in monitoring rather than a stopped pipeline).
     */
    private void add(Sensor sensor, String name, String description, MeasurableStat stat) {
        MetricName metric = plugin.metricName(name, description, new LinkedHashMap<>());
        long deadline = System.nanoTime() + registerWait.toNanos();
        while (true) {
            try {
                sensor.add(metric, stat);
                return;
            } catch (IllegalArgumentException stillThere) {
                if (System.nanoTime() > deadline) {
                    LOG.warn(
                            "metric {} of {} is still registered by an earlier task after {}: not published",
                            name,
                            metric.tags(),
                            registerWait);
                    return;
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
