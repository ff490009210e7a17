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
package io.nearline.jobs.kit.processes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** The end of a process's log, for the message of a run that failed. */
public final class LogTail {

    private static final int LINES = 15;

    private LogTail() {}

    /** The last lines of {@code log} that {@code which} keeps, or a note that there is no log. */
    public static String of(Path log, Predicate<String> which) {
        // ISO-8859-1: a log's bytes are read whatever they are
        try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            List<String> kept = lines.filter(which).toList();
            return String.join("\n", kept.subList(Math.max(0, kept.size() - LINES), kept.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(no log at " + log + ")";
        }
    }
}
