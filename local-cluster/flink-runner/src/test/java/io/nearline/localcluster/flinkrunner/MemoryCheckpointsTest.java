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
package io.nearline.localcluster.flinkrunner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.state.CheckpointStorage;
import org.apache.flink.runtime.state.storage.FileSystemCheckpointStorage;
import org.apache.flink.runtime.state.storage.JobManagerCheckpointStorage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryCheckpointsTest {

    private final ClassLoader loader = getClass().getClassLoader();

    @Test
    void withoutADirectoryCheckpointsStayInMemoryAboveFlinksFiveMegabytes() {
        CheckpointStorage storage = new FlinkLocal.MemoryCheckpoints().createFromConfig(new Configuration(), loader);

        int max = assertInstanceOf(JobManagerCheckpointStorage.class, storage).getMaxStateSize();
        assertEquals(FlinkLocal.MemoryCheckpoints.MAX_BYTES, max);
        assertTrue(max > JobManagerCheckpointStorage.DEFAULT_MAX_STATE_SIZE);
    }

    @Test
    void aCheckpointDirectoryStillMeansFiles(@TempDir Path dir) {
        Configuration config = new Configuration();
        config.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, dir.toUri().toString());

        CheckpointStorage storage = new FlinkLocal.MemoryCheckpoints().createFromConfig(config, loader);

        assertEquals(
                dir,
                Path.of(assertInstanceOf(FileSystemCheckpointStorage.class, storage)
                        .getCheckpointPath()
                        .toUri()));
    }
}
