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
package io.nearline.localcluster.databases;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** What the database servers share: running a setup command, a free port, stopping the process started. */
public final class Processes {

    private Processes() {}

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /**
     * Run by root, the servers run as their packages' users, who must be able to enter {@code dir}:
     * the first directory on its path that does not let others through ({@code o+x}), or empty.
     */
    public static Optional<Path> closedToServerUsers(Path dir) throws IOException {
        if (!isRoot()) {
            return Optional.empty();
        }
        for (Path p = dir.toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p) && !Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Runs {@code command} to its end (at most two minutes), its output appended to {@code log}; fails on a non-zero exit. */
    static void run(List<String> command, Path log) throws IOException {
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " failed; see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted: " + String.join(" ", command));
        }
    }

    /** Sends {@code signal} to the process started here, by its PID; waits 30 s, then kills it. */
    static void stop(Process process, String signal) {
        if (!process.isAlive()) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .start()
                    .waitFor(10, TimeUnit.SECONDS);
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (IOException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            process.destroyForcibly();
        }
    }
}
