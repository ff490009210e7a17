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
package io.nearline.jobs.cluster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A client JVM (Flink's CliFrontend, Samza's ApplicationRunnerMain, Hadoop's FsShell) run to completion
 * with a time limit: a submission YARN cannot place, or a file system that does not answer, waits
 * forever otherwise.
 */
public final class ClientProcess {

    /** What the client printed (stdout and stderr together) and how it ended; exit -1 when it timed out. */
    public record Result(int exit, String output) {
        public boolean timedOut() {
            return exit == -1;
        }
    }

    private ClientProcess() {}

    public static Result run(List<String> command, Map<String, String> env, Duration timeout) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            pb.environment().putAll(env);
            Process p = pb.start();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Thread reader = new Thread(() -> copy(p.getInputStream(), out), "client-output");
            reader.start();
            boolean ended = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!ended) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
            reader.join(5_000);
            String text;
            synchronized (out) {
                text = out.toString(StandardCharsets.UTF_8);
            }
            return new Result(ended ? p.exitValue() : -1, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted");
        }
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                synchronized (out) {
                    out.write(buffer, 0, n);
                }
            }
        } catch (IOException e) {
            // the client was ended: what it printed so far is what there is
        }
    }
}
