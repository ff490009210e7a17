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
package io.nearline.lxctestbed.drillrunner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run that is not valid shows its job's errors from the containers' logs, not the launch script's probing. */
class JobErrorsTest {

    private static final String APP = "application_1_0001";

    @TempDir
    Path testbed;

    @Test
    void showsEachContainersErrorLinesAndSaysWhenYarnDoesNotAnswer() throws IOException {
        Path container = Files.createDirectories(
                testbed.resolve("nodes/node-2/yarn/containers/" + APP + "/container_1_0001_01_000002"));
        Files.write(
                container.resolve("stdout"),
                List.of(
                        "2026-11-28 INFO SamzaContainer - starting",
                        "2026-11-28 ERROR SamzaContainer - the store did not answer",
                        "java.lang.IllegalStateException: no bucket",
                        "2026-11-28 INFO SamzaContainer - shutting down"));
        Files.write(
                container.resolve("stderr"),
                List.of(
                        "Unrecognized VM option 'PrintGCDateStamps'",
                        "Error: Could not create the Java Virtual Machine."));
        Files.createDirectories(testbed.resolve("nodes/node-1/yarn/containers/application_1_0002/c"));

        List<String> lines = JobErrors.of("http://127.0.0.1:1", APP, testbed);

        assertTrue(lines.get(0).startsWith("YARN did not answer for " + APP), lines.get(0));
        assertEquals(
                List.of(
                        "node-2/yarn/containers/" + APP + "/container_1_0001_01_000002/stdout:",
                        "  2026-11-28 ERROR SamzaContainer - the store did not answer",
                        "  java.lang.IllegalStateException: no bucket"),
                lines.subList(1, lines.size()));
    }

    @Test
    void aTestbedWithoutNodeFoldersLeavesYarnsWordsAlone() {
        List<String> lines = JobErrors.of("http://127.0.0.1:1", APP, testbed.resolve("gone"));
        assertEquals(1, lines.size(), lines.toString());
    }
}
