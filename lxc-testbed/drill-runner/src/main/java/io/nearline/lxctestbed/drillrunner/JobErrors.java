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

import io.nearline.jobs.cluster.YarnRest;
import io.nearline.jobs.kit.processes.LogTail;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Why a run's job stopped or wrote nothing, in its own words: YARN's final status and diagnostics,
 * and the error lines of each of its containers' logs on the testbed's nodes. A run that is not valid
 * prints these, so a CI log shows the cause even after the testbed is gone.
 */
final class JobErrors {

    /** A log line that says something went wrong, not the launch script's probing of JVM options. */
    private static final Pattern ERROR = Pattern.compile("\\b(ERROR|FATAL)\\b|Exception|Caused by|Error:");

    private static final Pattern PROBING = Pattern.compile(
            "Unrecognized (VM )?option|Could not create the Java Virtual|A fatal exception has occurred");

    private JobErrors() {}

    /** The lines to show: the application's end, then each container's last error lines. */
    static List<String> of(String yarnWeb, String appId, Path testbed) {
        List<String> out = new ArrayList<>();
        try {
            YarnRest.App app = YarnRest.app(yarnWeb, appId);
            out.add("YARN: " + app.state() + ", final status " + app.finalStatus()
                    + (app.diagnostics().isBlank()
                            ? ""
                            : ": " + app.diagnostics().strip()));
        } catch (RuntimeException e) {
            out.add("YARN did not answer for " + appId + ": " + e.getMessage());
        }
        Path nodes = testbed.resolve("nodes");
        for (Path container : containers(nodes, appId)) {
            for (String log : List.of("stdout", "stderr")) {
                Path file = container.resolve(log);
                if (!Files.exists(file)) {
                    continue;
                }
                String tail = LogTail.of(
                        file,
                        line -> ERROR.matcher(line).find()
                                && !PROBING.matcher(line).find());
                if (!tail.isBlank()) {
                    out.add(nodes.relativize(file) + ":");
                    tail.lines().map(l -> "  " + l).forEach(out::add);
                }
            }
        }
        return out;
    }

    /** Each container folder of the application on every node: nodes/NODE/yarn/containers/APP/CONTAINER. */
    private static List<Path> containers(Path nodes, String appId) {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> each = Files.list(nodes)) {
            for (Path node : each.sorted().toList()) {
                Path app = node.resolve("yarn/containers").resolve(appId);
                if (Files.isDirectory(app)) {
                    try (Stream<Path> cs = Files.list(app)) {
                        cs.filter(Files::isDirectory).sorted().forEach(out::add);
                    }
                }
            }
        } catch (IOException e) {
            // no node folders (the testbed is gone): YARN's words are all there is
        }
        return out;
    }
}
