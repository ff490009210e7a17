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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Work directories of the tools: the one a user gives is kept; a temporary one does not outlive a passing run. */
final class WorkDirs {

    private WorkDirs() {}

    interface Work {
        int run(Path work) throws Exception;
    }

    /**
     * Runs {@code work} in {@code given} (created if needed, and kept), or else in a new temporary
     * directory that is deleted when the run passes (exit 0) and kept, with its path printed, when it
     * does not: a bench's brokers and stores take gigabytes, and a failure is worth a look.
     */
    static int inWorkDir(Path given, String prefix, Work work) throws Exception {
        if (given != null) {
            return work.run(Files.createDirectories(given));
        }
        Path dir = Files.createTempDirectory(prefix);
        boolean passed = false;
        try {
            int code = work.run(dir);
            passed = code == 0;
            return code;
        } finally {
            if (passed) {
                deleteTree(dir);
                System.out.println("(work directory " + dir + " deleted; --work-dir DIR keeps one)");
            } else {
                System.out.println("work directory kept for a look: " + dir);
            }
        }
    }

    static void deleteTree(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
