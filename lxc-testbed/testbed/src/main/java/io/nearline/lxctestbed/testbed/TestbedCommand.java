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

import io.nearline.localcluster.cluster.ClusterException;
import io.nearline.localcluster.cluster.ClusterFile;
import io.nearline.localcluster.cluster.ClusterNetwork;
import io.nearline.localcluster.cluster.ClusterStart;
import io.nearline.localcluster.cluster.Daemons;
import io.nearline.localcluster.cluster.YarnCluster;
import io.nearline.localcluster.kit.options.LocalRunOptions;
import io.nearline.localcluster.kit.processes.Home;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nearline testbed up | status | down}: an emulated YARN cluster on this machine. The
 * ResourceManager, the Kafka broker and the networked cache (CouchbaseMock) run here, on a bridge the
 * testbed creates; each node is an LXC instance on that bridge running one NodeManager. The testbed
 * is a local cluster like {@code cluster up}'s ({@code DIR/cluster.yaml}), so {@code deploy},
 * {@code publish}, {@code check} and {@code collect} work against it with {@code --cluster DIR}.
 */
@Command(
        name = "testbed",
        mixinStandardHelpOptions = true,
        description = {
            "An emulated YARN cluster of LXC instances on this machine, to drill the jobs against node and network "
                    + "failures.",
            "%nThe ResourceManager, Kafka and CouchbaseMock run on this machine on a bridge the testbed creates (no "
                    + "NAT, no route out); each node is an LXC application container on that bridge running one "
                    + "NodeManager. Needs root, iproute2 and LXC (apt-get install lxc). Addresses are written to "
                    + "DIR/cluster.yaml: deploy to it with --cluster DIR.%n"
        },
        subcommands = {
            TestbedCommand.Up.class,
            TestbedCommand.Status.class,
            TestbedCommand.PipeCommand.class,
            TestbedCommand.Heal.class,
            TestbedCommand.Down.class,
            TestbedCommand.Targets.class
        })
public final class TestbedCommand implements Runnable {

    public static final String DEFAULT_DIR = ".nearline/testbed";

    @Override
    public void run() {
        System.out.println("usage: nearline testbed up|status|down [--dir DIR] (see --help)");
    }

    /** Where the testbed lives. */
    static final class Where {
        @Option(
                names = "--dir",
                defaultValue = DEFAULT_DIR,
                paramLabel = "DIR",
                description = "Where the testbed lives (default: ${DEFAULT-VALUE}).")
        Path dir;

        Path path() {
            return dir.toAbsolutePath().normalize();
        }
    }

    /** The testbed's nodes, numbered from 1, as far as its directory tells (none before the first up). */
    public static List<LxcNode> nodes(Path dir) {
        Path lxc = dir.resolve("lxc");
        if (!Files.isDirectory(lxc)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(lxc)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(f -> f.matches("node-\\d+\\.conf"))
                    .map(f -> Integer.parseInt(f.replaceAll("\\D", "")))
                    .sorted()
                    .map(n -> node(dir, n))
                    .toList();
        } catch (IOException e) {
            throw new ClusterException("cannot read " + lxc + ": " + e.getMessage());
        }
    }

    static LxcNode node(Path dir, int n) {
        TestbedNetwork net = TestbedNetwork.of(dir);
        return new LxcNode("node-" + n, n, net.nodeAddress(n), net.mac(n), dir.resolve("lxc"), net.bridge());
    }

    /** Why this machine cannot run a testbed, or null. */
    public static String unavailableReason() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "the testbed needs root (a bridge and LXC instances)";
        }
        for (String tool : List.of("ip", "lxc-execute", "lxc-stop", "lxc-info")) {
            try {
                Process p = new ProcessBuilder(tool, "--version")
                        .redirectErrorStream(true)
                        .start();
                p.getInputStream().readAllBytes();
                p.waitFor();
            } catch (IOException e) {
                return tool + " is not installed (apt-get install lxc iproute2)";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        }
        return null;
    }

    @Command(
            name = "up",
            mixinStandardHelpOptions = true,
            description = "Start a testbed in DIR (again: nothing if it is up already).")
    static final class Up extends ClusterStart {

        @picocli.CommandLine.Mixin
        Where where;

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
                        && nodes(dir).size() == nodes) {
                    System.out.println("testbed already up in " + dir + " (" + nodes + " nodes): "
                            + "'bin/nearline testbed status --dir " + dir + "'");
                    return 0;
                }
                Down.takeDown(dir); // what is left of an earlier one
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
                LxcNode node = node(dir, n);
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

    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            description = "Show the testbed's processes, instances and YARN nodes; exit 0 iff all are up.")
    static final class Status implements Callable<Integer> {

        @picocli.CommandLine.Mixin
        Where where;

        @Override
        public Integer call() {
            Path dir = where.path();
            ClusterFile c = ClusterFile.read(dir);
            System.out.println("testbed in " + dir + " (bridge " + c.namespace() + ", " + c.address() + ")");
            boolean allUp = Daemons.report(dir, c.processes());
            Map<String, String> yarn = c.yarnWebUrl() == null ? Map.of() : YarnCluster.nodes(c.yarnWebUrl());
            for (LxcNode node : nodes(dir)) {
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

    @Command(
            name = "pipe",
            mixinStandardHelpOptions = true,
            description = {
                "Put a network pipe on one node: a bandwidth limit, random loss and a fixed delay on its traffic with "
                        + "--to (this machine, another node, or all), each in both directions; replaces the node's "
                        + "pipe; --clear takes it off.",
                "%nBandwidth is shaped with HTB, loss dropped by nftables; delay is netem where the kernel has it, "
                        + "else a helper that holds the node's packets (lxc-testbed/bin/nfqueue-delay; needs iptables "
                        + "and python3).%n"
            })
    static final class PipeCommand implements Callable<Integer> {

        @picocli.CommandLine.Mixin
        Where where;

        @picocli.CommandLine.Parameters(index = "0", paramLabel = "NODE", description = "node-1, node-2, ...")
        String nodeName;

        @Option(names = "--bandwidth", paramLabel = "RATE", description = "Rate such as 512kbit, 1mbit.")
        String bandwidth;

        @Option(
                names = "--delay",
                paramLabel = "DURATION",
                converter = LocalRunOptions.DurationConverter.class,
                description = "Fixed delay each way, such as 100ms.")
        Duration delay;

        @Option(names = "--loss", paramLabel = "PERCENT", description = "Random loss, such as 5%.")
        String loss;

        @Option(
                names = "--to",
                defaultValue = "all",
                paramLabel = "host|NODE|all",
                description = "Whose traffic with the node the pipe holds (default: ${DEFAULT-VALUE}).")
        String to;

        @Option(names = "--clear", description = "Take the node's pipe off.")
        boolean clear;

        @Override
        public Integer call() {
            Path dir = where.path();
            LxcNode node = named(dir, nodeName);
            if (clear) {
                Pipe.clear(node);
                System.out.println("pipe on " + node.name() + " cleared");
                return 0;
            }
            if (bandwidth == null && delay == null && loss == null) {
                throw new ClusterException("give --bandwidth, --delay or --loss (or --clear)");
            }
            String peer =
                    switch (to) {
                        case "all" -> null;
                        case "host" -> TestbedNetwork.of(dir).serviceAddress();
                        default -> named(dir, to).address();
                    };
            Pipe pipe = new Pipe(bandwidth, delay == null ? 0 : delay.toMillis(), percent(loss), peer);
            pipe.apply(node);
            System.out.println("pipe on " + node.name() + " (" + node.address() + ") with " + to + ": "
                    + (bandwidth == null ? "" : bandwidth + " ")
                    + (delay == null ? "" : "delay " + delay.toMillis() + " ms ")
                    + (loss == null ? "" : "loss " + percent(loss) + "% ") + "each way");
            return 0;
        }

        private static int percent(String loss) {
            if (loss == null) {
                return 0;
            }
            try {
                return Integer.parseInt(loss.strip().replace("%", ""));
            } catch (NumberFormatException e) {
                throw new ClusterException("--loss " + loss + ": give a whole percentage such as 5%");
            }
        }

        private static LxcNode named(Path dir, String name) {
            List<LxcNode> nodes = nodes(dir);
            return nodes.stream()
                    .filter(n -> n.name().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new ClusterException("no node '" + name + "' in the testbed in " + dir
                            + " (nodes: " + nodes.stream().map(LxcNode::name).toList() + ")"));
        }
    }

    @Command(
            name = "targets",
            mixinStandardHelpOptions = true,
            description = "Keep the testbed's Prometheus targets where YARN runs the jobs' containers: every 5 s, ask "
                    + "each NodeManager what it runs and look on those nodes for the jobs' exporters (a Samza job's "
                    + "port block, Flink's reporter range). 'testbed up --prometheus' starts it; it runs until "
                    + "'testbed down'.")
    static final class Targets implements Callable<Integer> {

        @picocli.CommandLine.Mixin
        Where where;

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

    @Command(
            name = "heal",
            mixinStandardHelpOptions = true,
            description = "Take off whatever a drill may have left on the testbed: thaw and start its nodes, clear "
                    + "their partitions and pipes, start the broker if it is gone, continue the store's process. "
                    + "Every part is tried; exit 0 when all were healed, which also clears the mark of a drill that "
                    + "could not heal (the next 'drill run' refuses a testbed so marked).")
    static final class Heal implements Callable<Integer> {

        @picocli.CommandLine.Mixin
        Where where;

        @Override
        public Integer call() {
            Path dir = where.path();
            String before = TestbedHeal.faulted(dir)
                    .map(f -> " (left faulted: " + f + ")")
                    .orElse("");
            List<String> done = TestbedHeal.everything(dir);
            System.out.println("testbed healed" + before + ": "
                    + (done.isEmpty()
                            ? "partitions and pipes cleared on every node"
                            : String.join(", ", done) + "; partitions and pipes cleared on every node"));
            return 0;
        }
    }

    @Command(
            name = "down",
            mixinStandardHelpOptions = true,
            description = "Stop the testbed: its instances, exactly the processes 'up' started, and its bridge.")
    static final class Down implements Callable<Integer> {

        @picocli.CommandLine.Mixin
        Where where;

        @Override
        public Integer call() {
            Path dir = where.path();
            List<String> stopped = takeDown(dir);
            boolean gone = !TestbedNetwork.of(dir).exists()
                    && nodes(dir).stream().allMatch(n -> n.state().equals("STOPPED"));
            System.out.println("testbed down: stopped "
                    + (stopped.isEmpty() ? "nothing (none was running)" : String.join(", ", stopped)) + "; bridge "
                    + TestbedNetwork.of(dir).bridge() + " removed");
            return gone ? 0 : 1;
        }

        /** Stops every instance and process of the testbed in {@code dir} and removes its bridge. */
        static List<String> takeDown(Path dir) {
            List<String> stopped = new ArrayList<>();
            for (LxcNode node : nodes(dir)) {
                Pipe.stopDelay(node); // a host process in the node's namespace: it outlives the node
                if (!node.state().equals("STOPPED")) {
                    node.kill();
                    stopped.add(node.name());
                }
            }
            if (ClusterFile.exists(dir)) {
                ClusterFile c = ClusterFile.read(dir);
                Daemons.stop(dir, c.processes(), Duration.ofSeconds(20)).stream()
                        .filter(name -> !stopped.contains(name))
                        .forEach(stopped::add);
            }
            TestbedNetwork.of(dir).delete();
            TestbedHeal.clear(dir); // nothing of the testbed is left to be faulted
            return stopped;
        }
    }
}
