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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The YARN containers of one application on the testbed, found as processes: a container works in
 * {@code DIR/nodes/NODE/yarn/nm-local/usercache/USER/appcache/APP/CONTAINER}, and the instances share
 * this machine's process table. Engine-neutral: a Samza container and a Flink TaskManager look alike.
 */
final class JobContainers {

    /** One container's JVM: its id, the node it runs on, its pid; the first container of an attempt is its AM. */
    record Container(String id, String node, long pid) {
        boolean applicationMaster() {
            return id.endsWith("_000001");
        }
    }

    private static final Pattern CWD =
            Pattern.compile("/nodes/(node-\\d+)/yarn/nm-local/usercache/[^/]+/appcache/([^/]+)/(container_[^/]+)$");

    private JobContainers() {}

    /** The live container JVMs of {@code appId}, ordered by container id. */
    static List<Container> of(String appId) {
        return ProcessHandle.allProcesses()
                .map(p -> container(p, appId))
                .flatMap(Optional::stream)
                .sorted(Comparator.comparing(Container::id))
                .toList();
    }

    private static Optional<Container> container(ProcessHandle p, String appId) {
        try {
            Path proc = Path.of("/proc", Long.toString(p.pid()));
            Matcher m = CWD.matcher(proc.resolve("cwd").toRealPath().toString());
            if (!m.find() || !m.group(2).equals(appId)) {
                return Optional.empty();
            }
            // the JVM, not the launch script that waits for it
            String cmd = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8);
            String exe = cmd.split("\0", 2)[0];
            return exe.endsWith("java")
                    ? Optional.of(new Container(m.group(3), m.group(1), p.pid()))
                    : Optional.empty();
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }
}
