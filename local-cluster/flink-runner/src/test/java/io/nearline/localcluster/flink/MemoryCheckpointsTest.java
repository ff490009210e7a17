package io.nearline.localcluster.flink;

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
