package io.nearline.localcluster.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkDirsTest {

    private final AtomicReference<Path> used = new AtomicReference<>();

    private WorkDirs.Work writingAFileThenExiting(int code) {
        return work -> {
            used.set(work);
            Files.createDirectories(work.resolve("kafka/logs"));
            Files.writeString(work.resolve("kafka/logs/segment"), "bytes");
            return code;
        };
    }

    @Test
    void aTemporaryDirectoryIsDeletedWhenTheRunPasses() throws Exception {
        assertEquals(0, WorkDirs.inWorkDir(null, "nearline-workdirs-test", writingAFileThenExiting(0)));
        assertFalse(Files.exists(used.get()));
    }

    @Test
    void aTemporaryDirectoryIsKeptWhenTheRunFails() throws Exception {
        assertEquals(1, WorkDirs.inWorkDir(null, "nearline-workdirs-test", writingAFileThenExiting(1)));
        try {
            assertTrue(Files.exists(used.get().resolve("kafka/logs/segment")));
        } finally {
            WorkDirs.deleteTree(used.get());
        }
    }

    @Test
    void aGivenDirectoryIsKept(@TempDir Path dir) throws Exception {
        Path given = dir.resolve("mine");
        assertEquals(0, WorkDirs.inWorkDir(given, "nearline-workdirs-test", writingAFileThenExiting(0)));
        assertEquals(given, used.get());
        assertTrue(Files.exists(given.resolve("kafka/logs/segment")));
    }
}
