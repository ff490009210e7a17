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

import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ConnectRest;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.DirOption;
import io.nearline.jobs.cluster.FlinkRest;
import io.nearline.jobs.cluster.YarnRest;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description = "Show a local cluster's processes and addresses.")
final class ClusterStatus implements Callable<Integer> {

    @Mixin
    DirOption where;

    Path dir;

    @Override
    public Integer call() {
        dir = where.path();
        ClusterFile c = ClusterFile.read(dir);
        System.out.println("cluster in " + dir);
        boolean allUp = Daemons.report(dir, c.processes());
        System.out.println("  kafka        " + c.kafkaBootstrapServers() + reach(c.kafkaBootstrapServers()) + ", "
                + c.kafka().security().describe());
        System.out.println("  cache        " + c.describeStore());
        if (c.yarnWebUrl() != null) {
            System.out.println("  yarn         " + c.yarnWebUrl() + " (" + YarnRest.runningNodes(c.yarnWebUrl())
                    + " NodeManager(s) running), ResourceManager " + c.yarnRmAddress());
        }
        c.databases().forEach((kind, section) -> {
            System.out.println("  " + String.format("%-12s", kind) + " " + section.get("jdbc-url")
                    + (ClusterDatabase.answers(section) ? " (reachable)" : " (UNREACHABLE)"));
            ClusterDatabase.of(kind).slots(section).forEach(slot -> System.out.println("    slot " + slot));
        });
        if (c.prometheusUrl() != null) {
            System.out.println("  prometheus   " + c.prometheusUrl()
                    + reach(c.prometheusUrl().substring(7)));
        }
        if (c.connectRestUrl() != null) {
            List<String> plugins = ConnectRest.connectorClasses(c.connectRestUrl());
            System.out.println("  connect      " + c.connectRestUrl()
                    + (plugins.isEmpty()
                            ? " (UNREACHABLE)"
                            : " (reachable, " + plugins.size() + " connector plugins)"));
        }
        if (c.flinkRestUrl() != null) {
            System.out.println("  flink        " + c.flinkRestUrl()
                    + (FlinkRest.reachable(c.flinkRestUrl()) ? " (reachable)" : " (UNREACHABLE)"));
        }
        return allUp ? 0 : 1;
    }

    private static String reach(String hostPort) {
        return Daemons.listening(hostPort) ? " (reachable)" : " (UNREACHABLE)";
    }
}
