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
import io.nearline.jobs.cluster.YarnRest;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description = "Show the testbed's processes, instances and YARN nodes; exit 0 iff all are up.")
final class TestbedStatus implements Callable<Integer> {

    @picocli.CommandLine.Mixin
    TestbedCommand.Where where;

    @Override
    public Integer call() {
        Path dir = where.path();
        ClusterFile c = ClusterFile.read(dir);
        System.out.println("testbed in " + dir + " (bridge " + c.namespace() + ", " + c.address() + ")");
        boolean allUp = Daemons.report(dir, c.processes());
        Map<String, String> yarn = c.yarnWebUrl() == null ? Map.of() : YarnRest.nodes(c.yarnWebUrl());
        for (LxcNode node : TestbedCommand.nodes(dir)) {
            String instance = node.state();
            String nm = yarn.getOrDefault(node.address(), "not registered"); // a node's host name is its address
            allUp &= instance.equals("RUNNING") && nm.equals("RUNNING");
            System.out.printf(
                    "  %-16s %-14s instance %-8s NodeManager %s%n", node.name(), node.address(), instance, nm);
        }
        System.out.println("  kafka            " + c.kafkaBootstrapServers());
        System.out.println("  cache            " + c.describeStore());
        System.out.println("  yarn             " + c.yarnWebUrl() + ", ResourceManager " + c.yarnRmAddress());
        if (c.prometheusUrl() != null) {
            System.out.println("  prometheus       " + c.prometheusUrl() + " (targets: "
                    + dir.resolve("prometheus/targets") + ", kept where YARN runs the containers)");
        }
        return allUp ? 0 : 1;
    }
}
