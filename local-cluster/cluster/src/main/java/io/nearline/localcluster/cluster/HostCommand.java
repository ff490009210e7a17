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
package io.nearline.localcluster.cluster;

import io.nearline.jobs.cluster.ClusterException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** A short command of this machine's (ip, tc, nft, lxc-*) run to completion, for the cluster and testbed networks. */
public final class HostCommand {

    private HostCommand() {}

    /**
     * Runs {@code command}; returns what it printed. A failure is a {@link ClusterException} with its
     * output and {@code hint} (what the caller needs from this machine; may be empty).
     */
    public static String run(List<String> command, String hint) {
        String why = hint.isEmpty() ? "" : " (" + hint + ")";
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new ClusterException(String.join(" ", command) + " failed: " + out.strip() + why);
            }
            return out;
        } catch (IOException e) {
            throw new ClusterException("cannot run " + command.get(0) + ": " + e.getMessage() + why);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted");
        }
    }
}
