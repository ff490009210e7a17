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
