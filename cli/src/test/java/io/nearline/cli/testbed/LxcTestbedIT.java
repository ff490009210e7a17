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
package io.nearline.cli.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.YarnRest;
import io.nearline.lxctestbed.testbed.LxcNode;
import io.nearline.lxctestbed.testbed.TestbedCommand;
import io.nearline.lxctestbed.testbed.TestbedHeal;
import io.nearline.lxctestbed.testbed.TestbedNetwork;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The testbed on this machine: up with two LXC nodes whose NodeManagers register, up again changes
 * nothing, the instances have no route out, a node stopped hard is LOST to YARN within seconds, and
 * down leaves no instance, bridge or process behind. Skipped (the reason printed) without root or LXC,
 * and failed instead where {@code NEARLINE_REQUIRE_LXC} is true (CI, having installed LXC).
 */
class LxcTestbedIT {

    /** Kept when the test fails: DIR/logs has every daemon's log. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private final LxcTestbedCli cli = new LxcTestbedCli();

    @BeforeAll
    static void home() {
        LxcTestbedCli.requireTestbed("testbed IT", Optional.empty());
    }

    private int nearline(String... args) {
        return cli.nearline(args);
    }

    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    @Test
    void nodesRegisterAreLostWhenStoppedAndNothingOutlivesDown() throws Exception {
        Path tb = dir.resolve("testbed");
        try {
            assertEquals(0, nearline("testbed", "up", "--nodes", "3", "--dir", tb.toString()), cli.err());
            ClusterFile c = ClusterFile.read(tb);
            assertTrue(TestbedNetwork.of(tb).guarded(), "only the bridge reaches the cache's HTTP port");
            assertTrue(Daemons.listening(c.zookeeperQuorum()), "ZooKeeper for Flink's HA at " + c.zookeeperQuorum());
            assertEquals(0, nearline("testbed", "status", "--dir", tb.toString()), cli.err());
            List<LxcNode> nodes = TestbedCommand.nodes(tb);
            assertEquals(
                    Map.of(
                            nodes.get(0).address(), "RUNNING",
                            nodes.get(1).address(), "RUNNING",
                            nodes.get(2).address(), "RUNNING"),
                    YarnRest.nodes(c.yarnWebUrl()));

            assertEquals(0, nearline("testbed", "up", "--nodes", "3", "--dir", tb.toString()), cli.err());
            assertEquals(c.processes(), ClusterFile.read(tb).processes(), "a second up starts nothing");

            String routes = nodes.get(0).routes();
            assertFalse(routes.contains("default"), "no route out of the testbed: " + routes);

            pipesHoldTheirFigures(tb, nodes.get(0));
            aHealThatFailsOnOneNodeHealsTheOthersAndLeavesTheTestbedRefused(tb, nodes);

            LxcNode victim = nodes.get(2);
            long stopped = System.nanoTime();
            victim.kill();
            long lostAfter = awaitLost(c.yarnWebUrl(), victim.address(), Duration.ofSeconds(30)) - stopped;
            System.out.printf("node stopped hard: LOST to YARN after %.1f s%n", lostAfter / 1e9);
            assertTrue(lostAfter < Duration.ofSeconds(11).toNanos(), "LOST only after " + lostAfter / 1e9 + " s");
        } finally {
            assertEquals(0, nearline("testbed", "down", "--dir", tb.toString()), cli.err());
        }
        assertFalse(TestbedNetwork.of(tb).exists(), "the bridge is gone");
        assertFalse(TestbedNetwork.of(tb).guarded(), "the cache port's guard table is gone");
        assertTrue(TestbedCommand.nodes(tb).stream().allMatch(n -> n.state().equals("STOPPED")));
        ClusterFile after = ClusterFile.read(tb);
        assertTrue(after.processes().values().stream().noneMatch(pid -> Daemons.alive(pid, tb)), "no process left");
    }

    /**
     * Each pipe measured between this machine and a node: the bandwidth within 10 %, the loss within a
     * few points, the delay (netem, or the NFQUEUE helper where the kernel has no netem) within 20 %.
     */
    private void pipesHoldTheirFigures(Path tb, LxcNode node) throws Exception {
        String dir = tb.toString();
        assertEquals(
                0,
                nearline("testbed", "pipe", node.name(), "--bandwidth", "1mbit", "--to", "host", "--dir", dir),
                cli.err());
        double bitsPerSecond = tcpRate(node, Duration.ofSeconds(5));
        System.out.printf("pipe 1mbit: measured %.0f bit/s%n", bitsPerSecond);
        assertEquals(1_000_000, bitsPerSecond, 100_000, "1mbit within 10 %");
        assertEquals(0, nearline("testbed", "pipe", node.name(), "--clear", "--dir", dir), cli.err());
        assertTrue(tcpRate(node, Duration.ofSeconds(2)) > 10_000_000, "cleared: no limit left");

        assertEquals(
                0, nearline("testbed", "pipe", node.name(), "--loss", "5%", "--to", "host", "--dir", dir), cli.err());
        double loss = udpLoss(node, 4000);
        System.out.printf("pipe loss 5%%: measured %.1f %%%n", loss * 100);
        assertEquals(0.05, loss, 0.03, "5 % loss within 3 points");
        assertEquals(0, nearline("testbed", "pipe", node.name(), "--clear", "--dir", dir), cli.err());

        double before = connectMillis(node);
        assertEquals(
                0,
                nearline("testbed", "pipe", node.name(), "--delay", "100ms", "--to", "host", "--dir", dir),
                cli.err());
        double rtt = connectMillis(node) - before;
        System.out.printf("pipe delay 100ms each way: TCP connect %.1f ms slower%n", rtt);
        assertEquals(200, rtt, 40, "100 ms each way: a connect 200 ms slower, within 20 %");
        assertEquals(0, nearline("testbed", "pipe", node.name(), "--clear", "--dir", dir), cli.err());
        assertTrue(connectMillis(node) < 50, "cleared: no delay left");
    }

    /**
     * A delay on every node's link, healed as a drill heals a link fault ({@code TestbedHeal.onEvery},
     * the injector's heal) while the second node's heal fails (an error injected into its part: nothing
     * on a live node fails on demand): the first and third are really healed, the second is named and
     * keeps its delay; the testbed so marked is refused by the next drill until {@code testbed heal} has
     * cleared the second node's link and the mark.
     */
    private void aHealThatFailsOnOneNodeHealsTheOthersAndLeavesTheTestbedRefused(Path tb, List<LxcNode> nodes)
            throws Exception {
        String dir = tb.toString();
        for (LxcNode node : nodes) {
            assertEquals(
                    0,
                    nearline("testbed", "pipe", node.name(), "--delay", "100ms", "--to", "host", "--dir", dir),
                    cli.err());
        }
        LxcNode broken = nodes.get(1);
        ClusterException notHealed = assertThrows(
                ClusterException.class,
                () -> TestbedHeal.onEvery(nodes, "the links", node -> {
                    if (node.equals(broken)) {
                        throw new ClusterException("nsenter failed (injected)");
                    }
                    TestbedHeal.links(node);
                }));
        String message = notHealed.getMessage();
        assertTrue(message.contains("the links on " + broken), message);
        for (LxcNode healed : List.of(nodes.get(0), nodes.get(2))) {
            assertFalse(message.contains("on " + healed + ":"), message);
            assertTrue(connectMillis(healed) < 50, healed.name() + " healed: no delay left");
        }
        assertTrue(connectMillis(broken) > 150, broken.name() + " keeps its delay");
        TestbedHeal.mark(tb, List.of(message)); // what a drill does with a fault it could not heal
        assertEquals(2, nearline("drill", "run", "kill-container", "--engine", "samza", "--testbed", dir));
        assertTrue(cli.err().contains("left faulted by an earlier drill"), cli.err());

        assertEquals(0, nearline("testbed", "heal", "--dir", dir), cli.err());
        assertTrue(TestbedHeal.faulted(tb).isEmpty(), "the mark is cleared");
        assertTrue(connectMillis(broken) < 50, broken.name() + " healed by 'testbed heal'");
    }

    /** Milliseconds a TCP connect from this machine to a sink in the node takes (one round trip). */
    private static double connectMillis(LxcNode node) throws Exception {
        Sink sink = Sink.start(node, "tcp", 7003);
        try (sink;
                Socket s = new Socket()) {
            long start = System.nanoTime();
            s.connect(new InetSocketAddress(node.address(), 7003), 5000);
            return (System.nanoTime() - start) / 1e6;
        }
    }

    /** Bits per second from this machine to a sink in the node, sending for {@code time}. */
    private static double tcpRate(LxcNode node, Duration time) throws Exception {
        try (Sink sink = Sink.start(node, "tcp", 7001)) {
            try (Socket s = new Socket()) {
                s.setSendBufferSize(32 * 1024); // little left queued when sending stops
                s.connect(new InetSocketAddress(node.address(), 7001), 5000);
                OutputStream out = s.getOutputStream();
                byte[] chunk = new byte[16 * 1024];
                long end = System.nanoTime() + time.toNanos();
                while (System.nanoTime() < end) {
                    out.write(chunk);
                }
            }
            String[] result = sink.result().split(" "); // bytes N nanos M
            return Long.parseLong(result[1]) * 8e9 / Long.parseLong(result[3]);
        }
    }

    /** Share of {@code count} datagrams from this machine that did not reach a sink in the node. */
    private static double udpLoss(LxcNode node, int count) throws Exception {
        try (Sink sink = Sink.start(node, "udp", 7002);
                DatagramSocket socket = new DatagramSocket()) {
            InetSocketAddress to = new InetSocketAddress(node.address(), 7002);
            for (int i = 0; i < count; i++) {
                socket.send(new DatagramPacket(new byte[100], 100, to));
                if (i % 10 == 0) {
                    Thread.sleep(1); // paced: no drops but the pipe's
                }
            }
            long received = Long.parseLong(sink.result().split(" ")[1]);
            return 1 - received / (double) count;
        }
    }

    /** A {@link PipeProbe} listening in the node's network namespace. */
    private record Sink(Process process, BufferedReader out) implements AutoCloseable {

        static Sink start(LxcNode node, String mode, int port) throws IOException {
            String java =
                    Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process p = new ProcessBuilder(node.inside(List.of(
                            java,
                            "-cp",
                            System.getProperty("java.class.path"),
                            PipeProbe.class.getName(),
                            mode,
                            node.address(),
                            Integer.toString(port))))
                    .redirectErrorStream(true)
                    .start();
            Sink sink =
                    new Sink(p, new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
            String first = sink.out().readLine();
            assertEquals("READY", first, "the probe did not start");
            return sink;
        }

        /** Its count, once it is done. */
        String result() throws IOException {
            String line = out.readLine();
            assertTrue(line != null, "the probe ended without a count");
            return line;
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }

    /** Nanosecond time at which YARN first reported the node at {@code address} LOST. */
    private static long awaitLost(String web, String address, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if ("LOST".equals(YarnRest.nodes(web).get(address))) {
                return System.nanoTime();
            }
            Thread.sleep(200);
        }
        throw new AssertionError(
                "node " + address + " not LOST within " + limit.toSeconds() + " s: " + YarnRest.nodes(web));
    }
}
