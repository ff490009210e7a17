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

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.apache.samza.config.MapConfig;
import org.apache.samza.metrics.MetricsRegistryMap;
import org.apache.samza.metrics.MetricsReporter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How a restarted local Samza run knows its input is done: from the last offset each task processed,
 * as Samza's own task gauges report it (the tasks' registries only), each partition counted up to its
 * end and no further, a partition no task reports yet counted as not started.
 */
class InputPositionsTest {

    private MetricsReporter reporter;

    @BeforeEach
    void reporter() {
        InputPositions.clear();
        reporter = new InputPositions().getMetricsReporter("positions", "0", new MapConfig(Map.of()));
        reporter.start();
    }

    @AfterEach
    void forget() {
        reporter.stop();
        InputPositions.clear();
    }

    /** A task's registry, as Samza's container makes one, with its offset gauges. */
    private void task(String source, Map<String, Long> offsets) {
        MetricsRegistryMap registry = new MetricsRegistryMap();
        offsets.forEach((name, offset) -> registry.newGauge("org.apache.samza.system.SystemConsumers", name, offset));
        reporter.register(source, registry);
    }

    @Test
    void whatTheTasksProcessedIsCountedUpToEachPartitionsEnd() {
        task("TaskName-Partition 0", Map.of("kafka-nearline.cdc-0-offset", 41L));
        task("TaskName-Partition 1", Map.of("kafka-nearline.cdc-1-offset", 99L));
        Map<String, Map<Integer, Long>> ends = Map.of("nearline.cdc", Map.of(0, 100L, 1, 100L, 2, 50L));
        assertEquals(250, InputPositions.total(ends));
        assertEquals(42 + 100 + 0, InputPositions.processed(ends), "partition 2: no task reports it yet");
    }

    @Test
    void anOffsetPastTheEndCountsOnlyUpToIt() {
        task("TaskName-Partition 0", Map.of("kafka-t-0-offset", 500L));
        assertEquals(10, InputPositions.processed(Map.of("t", Map.of(0, 10L))));
    }

    @Test
    void onlyTheTasksRegistriesAreRead() {
        task("SamzaContainerMetrics", Map.of("kafka-t-0-offset", 9L));
        assertEquals(0, InputPositions.processed(Map.of("t", Map.of(0, 10L))), "a container's, not a task's");
        task("TaskName-Partition 0", Map.of("kafka-t-0-offset", 4L));
        assertEquals(5, InputPositions.processed(Map.of("t", Map.of(0, 10L))));
    }

    @Test
    void anotherRunsTasksAreForgotten() {
        task("TaskName-Partition 0", Map.of("kafka-t-0-offset", 9L));
        InputPositions.clear();
        assertEquals(0, InputPositions.processed(Map.of("t", Map.of(0, 10L))));
        assertEquals(0, InputPositions.total(Map.of()));
    }
}
