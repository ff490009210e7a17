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
package io.nearline.localcluster.kit.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** A run refused before it starts leaves no temporary work directory behind; one the user named stays. */
class LocalRunOptionsTest {

    @TempDir
    Path tmp;

    private static LocalRunOptions parse(String... args) {
        LocalRunOptions options = new LocalRunOptions();
        new CommandLine(options).parseArgs(args);
        return options;
    }

    @Test
    void aTemporaryWorkDirIsRemovedWhenTheRunIsRefused() {
        AtomicReference<Path> given = new AtomicReference<>();
        IllegalArgumentException refusal = new IllegalArgumentException("bad setting");
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> parse().checkedWorkDir("nearline-test-refused", dir -> {
                    given.set(dir);
                    throw refusal;
                }));
        assertSame(refusal, e);
        assertTrue(given.get() != null && !Files.exists(given.get()), "left behind: " + given.get());
    }

    @Test
    void aTemporaryWorkDirStaysWhenTheRunIsAccepted() throws IOException {
        Path dir = parse().checkedWorkDir("nearline-test-accepted", d -> {});
        try {
            assertTrue(Files.isDirectory(dir));
        } finally {
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void aWorkDirTheUserNamedStaysEvenWhenTheRunIsRefused() {
        Path named = tmp.resolve("mine");
        assertThrows(IllegalArgumentException.class, () -> parse("--work-dir", named.toString())
                .checkedWorkDir("unused", d -> {
                    throw new IllegalArgumentException("bad setting");
                }));
        assertTrue(Files.isDirectory(named));
    }

    @Test
    void aRefusedCheckThatWroteIntoTheDirKeepsIt() throws IOException {
        AtomicReference<Path> given = new AtomicReference<>();
        assertThrows(IllegalArgumentException.class, () -> parse().checkedWorkDir("nearline-test-wrote", dir -> {
            given.set(dir);
            try {
                Files.writeString(dir.resolve("note"), "x");
            } catch (IOException io) {
                throw new RuntimeException(io);
            }
            throw new IllegalArgumentException("bad setting");
        }));
        assertEquals("x", Files.readString(given.get().resolve("note")));
        Files.delete(given.get().resolve("note"));
        Files.delete(given.get());
        assertFalse(Files.exists(given.get()));
    }
}
