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

import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.YarnRest;
import io.nearline.jobs.cluster.ZooKeeper;
import io.nearline.localcluster.cluster.HostCommand;
import io.nearline.lxctestbed.drillrunner.Drill.Fault;
import io.nearline.lxctestbed.testbed.LxcNode;
import io.nearline.lxctestbed.testbed.Partition;
import io.nearline.lxctestbed.testbed.Pipe;
import io.nearline.lxctestbed.testbed.TestbedCommand;
import io.nearline.lxctestbed.testbed.TestbedHeal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Applies and heals the catalogue's faults on a testbed running one job. Each apply says what it hit
 * and whether the fault is really there (the instance STOPPED, the process gone, the rules loaded):
 * a fault that could not be applied makes the drill invalid instead of passing vacuously.
 */
final class Injector implements FaultLife.Testbed {

    /**
     * What an apply did: whether the fault is in place, on what it was tried ({@code "-"}: nothing was
     * touched), and why not when it is not. A fault that is not in place may still have reached its
     * target, or some of its targets: it is healed there all the same.
     */
    record Applied(boolean applied, String target, String detail, String container) {

        Applied(boolean applied, String target, String detail) {
            this(applied, target, detail, null);
        }

        /** Whether anything may have been changed, so that a heal is due. */
        boolean touched() {
            return !target.equals("-") && !target.isEmpty();
        }
    }

    /** The targets an action was run on, up to the one that failed (included: it may be half done), and that failure. */
    record Reached<T>(List<T> targets, RuntimeException failure) {}

    /** Runs {@code action} on each target in turn, stopping at the first failure. */
    static <T> Reached<T> onEach(List<T> targets, Consumer<T> action) {
        List<T> reached = new ArrayList<>();
        for (T t : targets) {
            reached.add(t);
            try {
                action.accept(t);
            } catch (RuntimeException e) {
                return new Reached<>(reached, e);
            }
        }
        return new Reached<>(reached, null);
    }

    /**
     * The broker's, YARN's and ZooKeeper's ports, left open when a node is cut off from the store (with
     * ZooKeeper cut too, Flink's JobManager loses its leadership and restarts the job: another fault).
     */
    static final Set<Integer> NOT_THE_STORE = Set.of(
            9092,
            YarnRest.RM_PORT,
            YarnRest.WEB_PORT,
            8030, // YARN's scheduler
            8031, // and resource tracker
            ZooKeeper.PORT);

    private static final int NODE_MANAGER_WEB = 8042;

    private final Path dir;
    private final ClusterFile cluster;
    private final String appId;
    private final String engine;
    private final String jobName;
    private final Probe probe;
    /** The containers of the killed one's role before each kill: a replacement is one not among them. */
    private final Map<Fault, Set<String>> containersBefore = new ConcurrentHashMap<>();

    /** Faults for {@code appId}, the job {@code jobName} on {@code engine}, measured with {@code probe}. */
    Injector(Path dir, ClusterFile cluster, String appId, String engine, String jobName, Probe probe) {
        this.dir = dir;
        this.cluster = cluster;
        this.appId = appId;
        this.engine = engine;
        this.jobName = jobName;
        this.probe = probe;
    }

    @Override
    public String store() {
        return cluster.store();
    }

    @Override
    public Applied apply(Fault f) {
        try {
            return switch (f.kind()) {
                case KILL_NODE -> {
                    LxcNode node = jobNode();
                    yield onNode(
                            node,
                            LxcNode::kill,
                            () -> node.state().equals("STOPPED"),
                            "instance stopped hard (lxc-stop -k)");
                }
                case PAUSE_NODE -> {
                    LxcNode node = jobNode();
                    yield onNode(node, LxcNode::freeze, node::frozen, "instance frozen (its cgroup's freezer)");
                }
                case KILL_CONTAINER -> killContainer(false);
                case KILL_AM -> killContainer(true);
                case PARTITION_NODE -> {
                    LxcNode node = jobNode();
                    yield onNode(
                            node,
                            Partition::isolate,
                            () -> Partition.on(node),
                            "cut off from everyone (nftables, both ways)");
                }
                case PARTITION_STORE ->
                    onJobNodes(
                            n -> Partition.cutFrom(n, cluster.address(), NOT_THE_STORE),
                            Partition::on,
                            "cut off from the store; broker, YARN and ZooKeeper reachable");
                case SLOW_LINK -> pipe(new Pipe(f.bandwidth(), 0, 0, null), "bandwidth " + f.bandwidth());
                case LOSSY_LINK -> pipe(new Pipe(null, 0, f.lossPercent(), null), f.lossPercent() + "% loss");
                case DELAYED_LINK ->
                    pipe(
                            new Pipe(null, f.delay().toMillis(), 0, null),
                            "delay " + f.delay().toMillis() + " ms");
                case BROKER_RESTART -> {
                    long pid = cluster.processes().get("kafka");
                    boolean was = Daemons.alive(pid, dir);
                    Daemons.stop(dir, Map.of("kafka", pid), Duration.ofSeconds(15));
                    yield check(was && !Daemons.alive(pid, dir), "kafka", "broker stopped (pid " + pid + ")");
                }
                case STORE_OUTAGE -> { // the cache's own process: CouchbaseMock or redis-server
                    long pid = cluster.processes().get(cluster.store());
                    signal("STOP", pid);
                    yield check(stopped(pid), cluster.store(), "store frozen (SIGSTOP, pid " + pid + ")");
                }
            };
        } catch (ClusterException e) {
            return new Applied(false, "-", e.getMessage());
        }
    }

    /**
     * Takes the fault off again wherever it reached, in place or not; faults that heal themselves (a
     * killed container) need nothing. Every node is tried; the first failure is thrown after.
     */
    @Override
    public void heal(Fault f, Applied applied) {
        if (!applied.touched()) {
            return;
        }
        switch (f.kind()) {
            case KILL_NODE -> {
                if (!node(applied.target()).state().equals("RUNNING")) { // a kill that failed left it up
                    Daemons.restart(dir, applied.target());
                }
            }
            case PAUSE_NODE -> node(applied.target()).thaw();
            case PARTITION_NODE -> Partition.heal(node(applied.target()));
            case PARTITION_STORE, SLOW_LINK, LOSSY_LINK, DELAYED_LINK -> {
                TestbedHeal.onEvery(
                        List.of(applied.target().split(",")), "the links", name -> TestbedHeal.links(node(name)));
            }
            case BROKER_RESTART -> {
                if (!Daemons.alive(cluster.processes().get("kafka"), dir)) {
                    Daemons.restart(dir, "kafka");
                }
            }
            case STORE_OUTAGE -> signal("CONT", cluster.processes().get(cluster.store()));
            case KILL_CONTAINER, KILL_AM -> {
                // YARN and the engine replace what was killed
            }
        }
    }

    /**
     * The fault's probe (see {@link Effect#expectation}): node faults from this machine to the node's
     * NodeManager; store, broker and link faults from a node of the job; kills on the process table.
     */
    @Override
    public Probe.Reading probe(Fault f, Applied applied) {
        try {
            return switch (f.kind()) {
                case KILL_NODE, PAUSE_NODE, PARTITION_NODE ->
                    probe.request(
                            null,
                            (applied == null ? jobNode() : node(applied.target())).address(),
                            NODE_MANAGER_WEB,
                            "GET /ws/v1/node/info HTTP/1.0\\r\\n\\r\\n");
                case PARTITION_STORE -> probe.connect(probeNode(applied), storeHost(), storePort());
                case STORE_OUTAGE -> probe.request(probeNode(applied), storeHost(), storePort(), storeRequest());
                case BROKER_RESTART -> {
                    String[] broker =
                            cluster.kafkaBootstrapServers().split(",")[0].split(":");
                    yield probe.connect(probeNode(applied), broker[0], Integer.parseInt(broker[1]));
                }
                case SLOW_LINK -> probe.upload(probeNode(applied));
                case LOSSY_LINK -> probe.loss(probeNode(applied));
                case DELAYED_LINK -> probe.roundTrip(probeNode(applied));
                case KILL_CONTAINER, KILL_AM -> containerProbe(f, applied);
            };
        } catch (ClusterException e) {
            return Probe.Reading.none(e.getMessage());
        }
    }

    @Override
    public Signs.Source signs(Fault f, long startMillis) {
        return new Signs.OnTestbed(
                cluster,
                new Signs.Job(appId, engine, jobName),
                f.kind(),
                name -> node(name).address(),
                startMillis);
    }

    /**
     * Before a kill: 1 when a container of the role runs (and which do). After: 1 while the killed JVM
     * still runs or a replacement does, 0 in between.
     */
    private Probe.Reading containerProbe(Fault f, Applied applied) {
        boolean am = f.kind() == Drill.Kind.KILL_AM;
        Set<String> role = new LinkedHashSet<>();
        JobContainers.of(appId).stream()
                .filter(x -> x.applicationMaster() == am)
                .forEach(x -> role.add(x.id()));
        if (applied == null) {
            containersBefore.put(f, role);
            return Probe.Reading.of(role.isEmpty() ? 0 : 1);
        }
        Set<String> before = containersBefore.getOrDefault(f, Set.of());
        boolean killedRuns = role.contains(applied.container());
        boolean replaced = role.stream().anyMatch(id -> !before.contains(id));
        return Probe.Reading.of(killedRuns || replaced ? 1 : 0);
    }

    /** The node a probe runs on: the first a fault on nodes reached (a link's), or one running the job. */
    private LxcNode probeNode(Applied applied) {
        String first = applied == null ? "" : applied.target().split(",")[0];
        return TestbedCommand.nodes(dir).stream()
                .filter(n -> n.name().equals(first))
                .findFirst()
                .orElseGet(() -> jobNodes().get(0));
    }

    private String storeHost() {
        return cluster.address();
    }

    /** The port the store's probe speaks to: Redis's, or CouchbaseMock's HTTP (its {@code =manager} port). */
    private int storePort() {
        String address = cluster.storeAddress()
                .getOrDefault(cluster.store().equals("redis") ? "servers" : "connection-string", "");
        Matcher m = Pattern.compile(cluster.store().equals("redis") ? ":(\\d+)" : ":(\\d+)=manager")
                .matcher(address);
        if (!m.find()) {
            throw new ClusterException(
                    "cannot tell the store's port from '" + address + "' in the testbed's cluster.yaml");
        }
        return Integer.parseInt(m.group(1));
    }

    /** A request the store answers at once when it runs: Redis's PING, an HTTP request to CouchbaseMock. */
    private String storeRequest() {
        return cluster.store().equals("redis") ? "PING\\r\\n" : "GET /pools HTTP/1.0\\r\\n\\r\\n";
    }

    /** The node to fail: one running a job container, one without the AM when there is such. */
    LxcNode jobNode() {
        List<JobContainers.Container> running = JobContainers.of(appId);
        Set<String> amNodes = new LinkedHashSet<>();
        running.stream().filter(JobContainers.Container::applicationMaster).forEach(c -> amNodes.add(c.node()));
        return running.stream()
                .filter(c -> !c.applicationMaster())
                .map(JobContainers.Container::node)
                .sorted((a, b) -> Boolean.compare(amNodes.contains(a), amNodes.contains(b)))
                .findFirst()
                .map(this::node)
                .orElseThrow(() -> new ClusterException("no container of " + appId + " is running"));
    }

    /** The nodes running the job's containers (the AM's too: it talks to the broker). */
    List<LxcNode> jobNodes() {
        List<LxcNode> out = new ArrayList<>();
        JobContainers.of(appId).stream()
                .map(JobContainers.Container::node)
                .distinct()
                .forEach(n -> out.add(node(n)));
        if (out.isEmpty()) {
            throw new ClusterException("no container of " + appId + " is running");
        }
        return out;
    }

    private Applied killContainer(boolean am) {
        JobContainers.Container c = JobContainers.of(appId).stream()
                .filter(x -> x.applicationMaster() == am)
                .findFirst()
                .orElseThrow(() ->
                        new ClusterException("no " + (am ? "application master" : "job container") + " of " + appId));
        ProcessHandle.of(c.pid()).ifPresent(ProcessHandle::destroyForcibly);
        boolean gone = ProcessHandle.of(c.pid())
                .map(p -> p.onExit().completeOnTimeout(p, 5, TimeUnit.SECONDS).join())
                .map(p -> !p.isAlive())
                .orElse(true);
        String what = (am ? "application master " : "container ") + c.id() + " killed (kill -9, pid " + c.pid() + ")";
        return new Applied(gone, c.node(), gone ? what : "not in place after the attempt: " + what, c.id());
    }

    private Applied pipe(Pipe pipe, String what) {
        return onJobNodes(pipe::apply, n -> true, what + " each way on the job's nodes");
    }

    /** {@code action} on one node: the node is its target even when the action fails half-way. */
    private static Applied onNode(LxcNode node, Consumer<LxcNode> action, BooleanSupplier inPlace, String what) {
        try {
            action.accept(node);
        } catch (ClusterException e) {
            return new Applied(false, node.name(), "failed on " + node.name() + ": " + e.getMessage());
        }
        return check(within(inPlace, Duration.ofSeconds(5)), node.name(), what);
    }

    /** {@code action} on each of the job's nodes; those it reached are the target even when one fails. */
    private Applied onJobNodes(Consumer<LxcNode> action, Predicate<LxcNode> inPlace, String what) {
        Reached<LxcNode> r = onEach(jobNodes(), action);
        if (r.failure() != null) {
            return new Applied(
                    false,
                    names(r.targets()),
                    "failed on " + r.targets().get(r.targets().size() - 1).name() + " (healed where it reached): "
                            + r.failure().getMessage());
        }
        return check(r.targets().stream().allMatch(inPlace), names(r.targets()), what);
    }

    private LxcNode node(String name) {
        return TestbedCommand.nodes(dir).stream()
                .filter(n -> n.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new ClusterException("no node " + name + " in the testbed in " + dir));
    }

    private static Applied check(boolean holds, String target, String what) {
        return new Applied(holds, target, holds ? what : "not in place after the attempt: " + what);
    }

    private static String names(List<LxcNode> nodes) {
        return String.join(",", nodes.stream().map(LxcNode::name).toList());
    }

    private static void signal(String signal, long pid) {
        HostCommand.run(List.of("kill", "-" + signal, Long.toString(pid)), "");
    }

    /**
     * Whether the process is stopped (state T in /proc/PID/stat), looked at for up to two seconds: a stop
     * signal reaches every thread of a process, and its state shows it only once the kernel has got to
     * them.
     */
    private static boolean stopped(long pid) {
        return within(
                () -> {
                    try {
                        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                        return stat.substring(stat.lastIndexOf(')') + 2).startsWith("T");
                    } catch (IOException e) {
                        return false; // gone
                    }
                },
                Duration.ofSeconds(2));
    }

    /**
     * Whether {@code holds} comes true within {@code time}: a freeze, a stop or a kill takes the kernel
     * a moment, longer on a loaded machine (a node's freezer reads FREEZING before FROZEN).
     */
    private static boolean within(BooleanSupplier holds, Duration time) {
        long deadline = System.nanoTime() + time.toNanos();
        while (!holds.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Daemons.sleep(50);
        }
        return true;
    }
}
