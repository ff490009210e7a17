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
package io.nearline.localcluster.samzarunner;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.samza.config.Config;
import org.apache.samza.metrics.Gauge;
import org.apache.samza.metrics.Metric;
import org.apache.samza.metrics.MetricsReporter;
import org.apache.samza.metrics.MetricsReporterFactory;
import org.apache.samza.metrics.ReadableMetricsRegistry;

/**
 * Where the tasks of a local Samza run have got to in their inputs, as Samza's own task metrics say:
 * the gauge {@code kafka-<topic>-<partition>-offset} holds the last offset a task processed, starting
 * from its checkpoint. A job started again after a kill waits on this rather than on counts: a task
 * whose input was read to its end before the crash gets no message again, and counts nothing.
 * Installed as a metrics reporter by {@link SamzaLocal#config}.
 */
public final class InputPositions implements MetricsReporterFactory {

    static final String REPORTER = "nearline-input-positions";

    private static final Map<String, ReadableMetricsRegistry> TASKS = new ConcurrentHashMap<>();

    @Override
    public MetricsReporter getMetricsReporter(String name, String processorId, Config config) {
        return new MetricsReporter() {
            @Override
            public void start() {}

            @Override
            public void register(String source, ReadableMetricsRegistry registry) {
                if (source.startsWith("TaskName-")) {
                    TASKS.put(source, registry);
                }
            }

            @Override
            public void stop() {}
        };
    }

    /** Forgets the tasks of earlier runs in this JVM. */
    static void clear() {
        TASKS.clear();
    }

    /** The records of {@code ends} (topic to partition to end offset) the tasks have processed, per partition up to its end. */
    static long processed(Map<String, Map<Integer, Long>> ends) {
        long done = 0;
        for (Map.Entry<String, Map<Integer, Long>> topic : ends.entrySet()) {
            for (Map.Entry<Integer, Long> end : topic.getValue().entrySet()) {
                done += Math.min(end.getValue(), lastProcessed(topic.getKey(), end.getKey()) + 1);
            }
        }
        return done;
    }

    /** Every record below the end offsets (the topics of a replay start at offset 0). */
    static long total(Map<String, Map<Integer, Long>> ends) {
        return ends.values().stream()
                .flatMap(p -> p.values().stream())
                .mapToLong(Long::longValue)
                .sum();
    }

    /** The last offset a task processed of a topic partition; -1 when none reports it (yet). */
    private static long lastProcessed(String topic, int partition) {
        String name = "kafka-" + topic + "-" + partition + "-offset";
        for (ReadableMetricsRegistry registry : TASKS.values()) {
            for (String group : registry.getGroups()) {
                Metric metric = registry.getGroup(group).get(name);
                if (metric instanceof Gauge<?> gauge && gauge.getValue() != null) {
                    return Long.parseLong(gauge.getValue().toString());
                }
            }
        }
        return -1;
    }
}
