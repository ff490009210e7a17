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

import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.kit.processes.Home;
import io.nearline.localcluster.cluster.ClusterNetwork;
import io.nearline.localcluster.cluster.ClusterStart;
import io.nearline.localcluster.cluster.YarnCluster;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "up",
        mixinStandardHelpOptions = true,
        description = "Start a testbed in DIR (again: nothing if it is up already).")
final class TestbedUp extends ClusterStart {

    @picocli.CommandLine.Mixin
    TestbedCommand.Where where;

    @Option(
            names = "--nodes",
            defaultValue = "3",
            description = "LXC instances, one NodeManager each (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(
            names = "--store",
            defaultValue = "couchbase",
            description = "The testbed's cache: couchbase (CouchbaseMock) or redis (Debian's redis-server), on "
                    + "the bridge's address beside the broker. Default: ${DEFAULT-VALUE}.")
    String store;

    @Option(
            names = "--prometheus",
            description = "Also Debian's Prometheus server on the bridge's address (port 9090) with the rules of "
                    + "jobs/monitoring, and a follower that keeps its targets where YARN runs the jobs' "
                    + "containers ('testbed targets').")
    boolean prometheus;

    @Override
    protected String store() {
        return store;
    }

    @Override
    protected boolean prometheus() {
        return prometheus;
    }

    @Override
    protected Map<String, List<String>> moreDaemons(Path home) {
        if (!prometheus) {
            return Map.of();
        }
        return Map.of(
                YarnTargets.PROCESS,
                List.of(
                        Home.java(),
                        "-Xmx128m",
                        Daemons.marker(dir),
                        "-Dnearline.home=" + home,
                        "-jar",
                        Home.toolsJar(home).toString(),
                        "testbed",
                        "targets",
                        "--dir",
                        dir.toString()));
    }

    @Override
    public Integer call() throws Exception {
        if (nodes < 1 || nodes > 16) {
            throw new ClusterException("--nodes " + nodes + ": give 1 to 16 (each node is a JVM of ~200 MB)");
        }
        if (prometheus && !Files.isRegularFile(Home.toolsJar(Home.dir()))) {
            throw new ClusterException("--prometheus: " + Home.toolsJar(Home.dir()) + " (its targets' follower) is "
                    + "missing: build the tools with ./mvnw package -DskipTests");
        }
        Path dir = where.path();
        if (ClusterFile.exists(dir)) {
            ClusterFile old = ClusterFile.read(dir);
            if (old.processes().values().stream().allMatch(pid -> Daemons.alive(pid, dir))
                    && TestbedCommand.nodes(dir).size() == nodes) {
                System.out.println("testbed already up in " + dir + " (" + nodes + " nodes): "
                        + "'bin/nearline testbed status --dir " + dir + "'");
                return 0;
            }
            TestbedDown.takeDown(dir); // what is left of an earlier one
        }
        return super.call();
    }

    @Override
    protected Path where() {
        return where.path();
    }

    @Override
    protected String kind() {
        return "testbed";
    }

    @Override
    protected boolean flink() {
        return false;
    }

    @Override
    protected boolean yarn() {
        return true;
    }

    @Override
    protected boolean zookeeper() {
        return true; // the drills kill Flink's JobManager (kill-am, a node under it)
    }

    @Override
    protected String unavailableReason() {
        return TestbedCommand.unavailableReason();
    }

    @Override
    protected ClusterNetwork network() {
        return TestbedNetwork.of(dir);
    }

    @Override
    protected Map<String, String> yarnSettings() {
        return Map.of(
                // a killed, frozen or cut-off node is LOST within 11 s (default: 10 minutes): the RM looks
                // every third of the expiry, so 8 s expiry means LOST after 8 to 10.7 s
                "yarn.nm.liveness-monitor.expiry-interval-ms", "8000",
                // a fixed port (default: any): a node started again is the same NodeId to YARN, not a second one
                "yarn.nodemanager.address", "${yarn.nodemanager.hostname}:8041",
                // JDK 17 fails to read the instances' cgroups: every container JVM runs without that detection
                "yarn.nodemanager.admin-env", "MALLOC_ARENA_MAX=4,JAVA_TOOL_OPTIONS=-XX:-UseContainerSupport",
                "yarn.nodemanager.resource.memory-mb", "4096",
                "yarn.nodemanager.resource.cpu-vcores", "4");
    }

    /** The instances' /etc/hosts: this machine on the bridge (the nodes go by their addresses). */
    private Path writeHosts(ClusterNetwork net) {
        StringBuilder hosts = new StringBuilder("127.0.0.1 localhost\n");
        try {
            hosts.append(net.serviceAddress())
                    .append(' ')
                    .append(InetAddress.getLocalHost().getHostName())
                    .append('\n');
            return Files.writeString(dir.resolve("hosts"), hosts.toString());
        } catch (IOException e) {
            throw new ClusterException("cannot write " + dir.resolve("hosts") + ": " + e.getMessage());
        }
    }

    @Override
    protected int startNodeManagers(ClusterNetwork net, String java, Path lib, Path conf, Map<String, Long> pids) {
        Path hosts = writeHosts(net);
        for (int n = 1; n <= nodes; n++) {
            LxcNode node = TestbedCommand.node(dir, n);
            try {
                node.writeConfig(hosts);
                Path nodeConf = YarnCluster.writeConfig(
                        dir.resolve("nodes").resolve(node.name()),
                        net.serviceAddress(),
                        node.address(),
                        yarnSettings());
                List<String> daemon = new ArrayList<>(YarnCluster.daemon(java, dir, lib, nodeConf, true));
                daemon.add(daemon.indexOf(java) + 1, "-XX:-UseContainerSupport");
                pids.put(node.name(), Daemons.start(dir, node.name(), node.execute(daemon)));
            } catch (IOException e) {
                throw new ClusterException("cannot set up " + node.name() + ": " + e.getMessage());
            }
        }
        return nodes;
    }
}
