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
import io.nearline.jobs.kit.processes.Home;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A network pipe on one testbed node, in the spirit of Dummynet's: a bandwidth limit, a random loss
 * and a fixed delay on the node's traffic with one peer (this machine, another node) or with all.
 * Each applies in both directions. This kernel has no netem, so:
 *
 * <ul>
 *   <li>bandwidth is an HTB class on each end of the node's veth (the node's eth0 for what it sends,
 *       the host's end for what it receives), the peer's traffic steered into it by address;
 *   <li>loss is an nftables table in the node's namespace dropping {@code numgen random mod 100 < N}
 *       of the packets to and from the peer;
 *   <li>delay is netem under the same HTB class where the kernel has it; where it has not, an iptables
 *       NFQUEUE rule in the node's namespace hands the packets to {@code lxc-testbed/bin/nfqueue-delay},
 *       run in that namespace, which lets each one go after the delay.
 * </ul>
 *
 * @param bandwidth a tc rate such as {@code 1mbit}, or null
 * @param delayMillis 0 for none
 * @param lossPercent 0 for none
 * @param peer the peer's address, or null for all traffic
 */
public record Pipe(String bandwidth, long delayMillis, int lossPercent, String peer) {

    private static final String TABLE = "nearline_pipe";
    private static final int QUEUE = 7;

    public Pipe {
        if (bandwidth != null && !bandwidth.matches("\\d+(\\.\\d+)?(bit|kbit|mbit|gbit)")) {
            throw new ClusterException("--bandwidth " + bandwidth + ": give a rate such as 512kbit, 1mbit or 1gbit");
        }
        if (lossPercent < 0 || lossPercent > 100) {
            throw new ClusterException("--loss " + lossPercent + "%: give 0 to 100");
        }
        if (delayMillis < 0) {
            throw new ClusterException("--delay must not be negative");
        }
    }

    /** A tc rate such as {@code 256kbit} in kbit/s. */
    public static double kbitPerSecond(String rate) {
        Matcher m = Pattern.compile("(\\d+(?:\\.\\d+)?)(bit|kbit|mbit|gbit)").matcher(rate);
        if (!m.matches()) {
            throw new ClusterException("'" + rate + "' is not a rate such as 512kbit, 1mbit or 1gbit");
        }
        double scale =
                switch (m.group(2)) {
                    case "bit" -> 0.001;
                    case "kbit" -> 1;
                    case "mbit" -> 1_000;
                    default -> 1_000_000;
                };
        return Double.parseDouble(m.group(1)) * scale;
    }

    /** Puts the pipe on {@code node}, replacing any pipe it had. */
    public void apply(LxcNode node) {
        clear(node);
        boolean netem = delayMillis > 0 && netemAvailable();
        if (delayMillis > 0 && !netem) {
            delayInUserSpace(node);
        }
        if (bandwidth != null || netem) {
            shape(node, node.inside(List.of()), "eth0", "dst", netem);
            shape(node, List.of(), node.hostLink(), "src", netem);
        }
        if (lossPercent > 0) {
            String match = peer == null ? "" : "ip saddr " + peer + " ";
            String out = peer == null ? "" : "ip daddr " + peer + " ";
            String rules = "table inet " + TABLE + " {\n"
                    + "  chain in { type filter hook input priority 0; policy accept; " + match
                    + "numgen random mod 100 < " + lossPercent + " drop; }\n"
                    + "  chain out { type filter hook output priority 0; policy accept; " + out
                    + "numgen random mod 100 < " + lossPercent + " drop; }\n"
                    + "}\n";
            TestbedNetwork.nft(node.inside(List.of()), rules);
        }
    }

    /** Takes every pipe off {@code node}. */
    public static void clear(LxcNode node) {
        if (node.state().equals("RUNNING")) { // otherwise its namespace is gone, and the pipe with it
            // the queue rules first: with no helper behind them they would drop every packet
            runQuietly(node.inside(List.of("iptables", "-F", "INPUT")));
            runQuietly(node.inside(List.of("iptables", "-F", "OUTPUT")));
            runQuietly(node.inside(List.of("tc", "qdisc", "del", "dev", "eth0", "root")));
            runQuietly(List.of("tc", "qdisc", "del", "dev", node.hostLink(), "root"));
            runQuietly(node.inside(List.of("nft", "delete", "table", "inet", TABLE)));
        }
        stopDelay(node);
    }

    /**
     * Delay without netem: the node's packets to and from the peer queued by iptables (the kernel has
     * no nftables queue expression here), released by {@code nfqueue-delay} after the delay. There is
     * no {@code --queue-bypass}: should the helper die, the node's packets are dropped rather than
     * passed undelayed, and a drill's probe sees the delay gone instead of the fault silently off.
     */
    private void delayInUserSpace(LxcNode node) {
        Path helper = Home.dir().resolve("lxc-testbed/bin/nfqueue-delay");
        for (String tool : List.of("iptables", "python3")) {
            try {
                TestbedNetwork.run(List.of("sh", "-c", "command -v " + tool));
            } catch (ClusterException e) {
                throw new ClusterException("--delay: this kernel has no netem, and the delay helper needs " + tool
                        + " (apt-get install iptables python3)");
            }
        }
        Path log = pidFile(node).resolveSibling(node.name() + ".delay.log");
        try {
            List<String> command = new ArrayList<>(List.of("setsid"));
            command.addAll(node.inside(List.of(helper.toString(), "" + QUEUE, "" + delayMillis)));
            long pid = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start()
                    .pid();
            Files.writeString(pidFile(node), Long.toString(pid));
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!Files.readString(log).contains("nfqueue-delay: queue")) {
                if (System.nanoTime() > deadline || ProcessHandle.of(pid).isEmpty()) {
                    throw new ClusterException("the delay helper did not start: "
                            + Files.readString(log).strip());
                }
                Thread.sleep(50);
            }
        } catch (IOException e) {
            throw new ClusterException("cannot start the delay helper: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted");
        }
        for (String[] rule : List.of(new String[] {"OUTPUT", "-o", "-d"}, new String[] {"INPUT", "-i", "-s"})) {
            List<String> iptables = new ArrayList<>(List.of("iptables", "-A", rule[0], rule[1], "eth0"));
            if (peer != null) {
                iptables.addAll(List.of(rule[2], peer));
            }
            iptables.addAll(List.of("-j", "NFQUEUE", "--queue-num", "" + QUEUE));
            TestbedNetwork.run(node.inside(iptables));
        }
    }

    /** Stops the node's delay helper, if it runs (the process this testbed started, by its pid file). */
    public static void stopDelay(LxcNode node) {
        Path pidFile = pidFile(node);
        try {
            if (Files.exists(pidFile)) {
                long pid = Long.parseLong(Files.readString(pidFile).strip());
                Path cmdline = Path.of("/proc", Long.toString(pid), "cmdline");
                if (Files.exists(cmdline) && Files.readString(cmdline).contains("nfqueue-delay")) {
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
                }
                Files.delete(pidFile);
            }
        } catch (IOException | NumberFormatException e) {
            throw new ClusterException("cannot stop the delay helper of " + node.name() + ": " + e.getMessage());
        }
    }

    private static Path pidFile(LxcNode node) {
        return node.lxcPath().resolve(node.name() + ".delay.pid");
    }

    /**
     * An HTB root on {@code dev} (run with {@code prefix}, the node's namespace or none): everything
     * unshaped, but for the peer's packets (matched on {@code side}, src or dst), which go through the
     * limited class and, with a delay, netem under it.
     */
    private void shape(LxcNode node, List<String> prefix, String dev, String side, boolean netem) {
        String rate = bandwidth != null ? bandwidth : "10gbit";
        tc(prefix, "qdisc", "add", "dev", dev, "root", "handle", "1:", "htb", "default", "1");
        tc(prefix, "class", "add", "dev", dev, "parent", "1:", "classid", "1:1", "htb", "rate", "10gbit");
        tc(prefix, "class", "add", "dev", dev, "parent", "1:", "classid", "1:10", "htb", "rate", rate, "ceil", rate);
        if (netem) {
            tc(
                    prefix,
                    "qdisc",
                    "add",
                    "dev",
                    dev,
                    "parent",
                    "1:10",
                    "handle",
                    "10:",
                    "netem",
                    "delay",
                    delayMillis + "ms");
        }
        List<String> filter = new ArrayList<>(
                List.of("filter", "add", "dev", dev, "parent", "1:", "protocol", "ip", "prio", "1", "u32"));
        filter.addAll(peer == null ? List.of("match", "u32", "0", "0") : List.of("match", "ip", side, peer + "/32"));
        filter.addAll(List.of("flowid", "1:10"));
        tc(prefix, filter.toArray(String[]::new));
    }

    private static void tc(List<String> prefix, String... args) {
        List<String> command = new ArrayList<>(prefix);
        command.add("tc");
        command.addAll(List.of(args));
        TestbedNetwork.run(command);
    }

    private static void runQuietly(List<String> command) {
        try {
            TestbedNetwork.run(command);
        } catch (ClusterException e) {
            // nothing there to take off
        }
    }

    /** Whether this kernel has netem: a trial qdisc on a veth pair made for the purpose. */
    static boolean netemAvailable() {
        String a = "nlnetem" + ProcessHandle.current().pid() % 10000;
        try {
            TestbedNetwork.run(List.of("ip", "link", "add", a, "type", "veth", "peer", "name", a + "p"));
            TestbedNetwork.run(List.of("tc", "qdisc", "add", "dev", a, "root", "netem", "delay", "1ms"));
            return true;
        } catch (ClusterException e) {
            return false;
        } finally {
            runQuietly(List.of("ip", "link", "delete", a));
        }
    }
}
