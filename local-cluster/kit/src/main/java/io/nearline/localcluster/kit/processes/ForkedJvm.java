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
package io.nearline.localcluster.kit.processes;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/** What the local tools' own server processes (the broker, CouchbaseMock) share: ports and the ready line. */
public final class ForkedJvm {

    private ForkedJvm() {}

    /**
     * Reads the process's output until a line starts with {@code prefix}; returns the rest of that line,
     * or empty if the process ends or {@code timeout} passes first.
     */
    static Optional<String> awaitReadyLine(Process process, String prefix, Duration timeout) throws IOException {
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + timeout.toNanos();
        String line;
        while ((line = out.readLine()) != null && System.nanoTime() < deadline) {
            if (line.startsWith(prefix)) {
                return Optional.of(line.substring(prefix.length()).strip());
            }
        }
        return Optional.empty();
    }
}
