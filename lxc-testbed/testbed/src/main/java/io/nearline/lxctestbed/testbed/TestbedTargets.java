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
package io.nearline.lxctestbed.testbed;

import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.kit.processes.Home;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(
        name = "targets",
        mixinStandardHelpOptions = true,
        description = "Keep the testbed's Prometheus targets where YARN runs the jobs' containers: every 5 s, ask "
                + "each NodeManager what it runs and look on those nodes for the jobs' exporters (a Samza job's "
                + "port block, Flink's reporter range). 'testbed up --prometheus' starts it; it runs until "
                + "'testbed down'.")
final class TestbedTargets implements Callable<Integer> {

    @picocli.CommandLine.Mixin
    TestbedCommand.Where where;

    @Override
    public Integer call() {
        Path dir = where.path();
        YarnTargets targets = new YarnTargets(dir, ClusterFile.read(dir).yarnWeb(), Home.dir());
        String lastError = "";
        while (ClusterFile.exists(dir)) {
            try {
                targets.pass()
                        .forEach((file, found) -> System.out.println(
                                Instant.now() + " " + file + ": " + (found.isEmpty() ? "ended" : found)));
                lastError = "";
            } catch (RuntimeException e) { // YARN restarting or unreachable: said once, tried again
                if (!e.getMessage().equals(lastError)) {
                    System.out.println(Instant.now() + " not this time: " + e.getMessage());
                    lastError = e.getMessage();
                }
            }
            Daemons.sleep(YarnTargets.EVERY.toMillis());
        }
        return 0;
    }
}
