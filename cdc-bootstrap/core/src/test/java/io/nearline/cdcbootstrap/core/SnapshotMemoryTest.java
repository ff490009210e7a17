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
package io.nearline.cdcbootstrap.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.testkit.ChangeEventGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot is published in bounded memory: a file several times the heap goes through a JVM with a
 * 32 MB heap when read as a stream, and does not when loaded whole (the negative control, which shows
 * the heap is small enough for the test to mean something).
 */
class SnapshotMemoryTest {

    private static final int ROWS = 300_000; // about 60 MB on disk, over 100 MB as objects
    private static final String HEAP = "-Xmx32m";

    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    @Test
    void aSnapshotLargerThanTheHeapIsPublishedAsAStream(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("snapshot.jsonl");
        ChangeEventGenerator.writeSnapshot(file, ROWS);
        assertTrue(Files.size(file) > 32L << 20, "the file must outweigh the heap: " + Files.size(file));

        Probe streamed = probe(dir, file, "stream");
        assertEquals(0, streamed.exit(), streamed.output());
        assertTrue(streamed.output().contains("rows sent " + ROWS), streamed.output());

        Probe loaded = probe(dir, file, "load");
        assertNotEquals(0, loaded.exit(), "loading it whole should not fit: " + loaded.output());
        assertTrue(loaded.output().contains("OutOfMemoryError"), loaded.output());
    }

    private record Probe(int exit, String output) {}

    private static Probe probe(Path dir, Path file, String mode) throws IOException, InterruptedException {
        Path log = dir.resolve(mode + ".log");
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        HEAP,
                        "-cp",
                        System.getProperty("java.class.path"),
                        SnapshotHeapProbe.class.getName(),
                        file.toString(),
                        mode)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!p.waitFor(150, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the " + mode + " probe did not finish; see " + log);
        }
        return new Probe(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
