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

import io.nearline.common.config.Config;
import io.nearline.localcluster.kit.options.LocalRunOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SamzaLocalTest {

    private static final Config BROKER = Config.of(Map.of("kafka.bootstrap-servers", "127.0.0.1:9092"));

    @Test
    void theJoinKeepsItsTasksOnTheRunLoopThreadWhateverTheParallelism(@TempDir Path work) {
        Map<String, String> samza = SamzaLocal.config("tracking-join.properties", run(3), BROKER, work);

        assertEquals("0", samza.get("job.container.thread.pool.size"));
    }

    @Test
    void aJobThatShipsAThreadPoolGetsOneThreadPerParallelTask(@TempDir Path work) {
        Map<String, String> samza = SamzaLocal.config("cache-updater.properties", run(3), BROKER, work);

        assertEquals("3", samza.get("job.container.thread.pool.size"));
    }

    @Test
    void theRunsOwnSettingComesLast(@TempDir Path work) {
        Config mine =
                Config.of(Map.of("kafka.bootstrap-servers", "127.0.0.1:9092", "job.container.thread.pool.size", "2"));

        Map<String, String> samza = SamzaLocal.config("tracking-join.properties", run(3), mine, work);

        assertEquals("2", samza.get("job.container.thread.pool.size"));
    }

    private static LocalRunOptions run(int parallelism) {
        LocalRunOptions run = new LocalRunOptions();
        run.parallelism = parallelism;
        run.checkpointInterval = Duration.ofSeconds(2);
        return run;
    }
}
