package io.nearline.localcluster.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.localcluster.NearlineCli;
import io.nearline.localcluster.cluster.ClusterFile;
import io.nearline.localcluster.cluster.Daemons;
import io.nearline.localcluster.cluster.YarnCluster;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The testbed on this machine: up with two LXC nodes whose NodeManagers register, up again changes
 * nothing, the instances have no route out, a node stopped hard is LOST to YARN within seconds, and
 * down leaves no instance, bridge or process behind. Skipped (the reason printed) without root or LXC.
 */
class LxcTestbedIT {

    /** Kept when the test fails: DIR/logs has every daemon's log. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private final StringWriter err = new StringWriter();

    @BeforeAll
    static void home() {
        System.setProperty(
                "nearline.home", Path.of("../..").toAbsolutePath().normalize().toString());
        String unavailable = TestbedCommand.unavailableReason();
        if (unavailable != null) {
            System.out.println("testbed IT skipped: " + unavailable);
        }
        Assumptions.assumeTrue(unavailable == null, unavailable);
    }

    private int nearline(String... args) {
        CommandLine cli = NearlineCli.commandLine();
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void nodesRegisterAreLostWhenStoppedAndNothingOutlivesDown() throws Exception {
        Path tb = dir.resolve("testbed");
        try {
            assertEquals(0, nearline("testbed", "up", "--nodes", "2", "--dir", tb.toString()), err.toString());
            ClusterFile c = ClusterFile.read(tb);
            assertEquals(0, nearline("testbed", "status", "--dir", tb.toString()), err.toString());
            List<LxcNode> nodes = TestbedCommand.nodes(tb);
            assertEquals(
                    Map.of(nodes.get(0).address(), "RUNNING", nodes.get(1).address(), "RUNNING"),
                    YarnCluster.nodes(c.yarnWebUrl()));

            assertEquals(0, nearline("testbed", "up", "--nodes", "2", "--dir", tb.toString()), err.toString());
            assertEquals(c.processes(), ClusterFile.read(tb).processes(), "a second up starts nothing");

            String routes = nodes.get(0).routes();
            assertFalse(routes.contains("default"), "no route out of the testbed: " + routes);

            LxcNode victim = nodes.get(1);
            long stopped = System.nanoTime();
            victim.kill();
            long lostAfter = awaitLost(c.yarnWebUrl(), victim.address(), Duration.ofSeconds(30)) - stopped;
            System.out.printf("node stopped hard: LOST to YARN after %.1f s%n", lostAfter / 1e9);
            assertTrue(lostAfter < Duration.ofSeconds(15).toNanos(), "LOST only after " + lostAfter / 1e9 + " s");
        } finally {
            assertEquals(0, nearline("testbed", "down", "--dir", tb.toString()), err.toString());
        }
        assertFalse(TestbedNetwork.of(tb).exists(), "the bridge is gone");
        assertTrue(TestbedCommand.nodes(tb).stream().allMatch(n -> n.state().equals("STOPPED")));
        ClusterFile after = ClusterFile.read(tb);
        assertTrue(after.processes().values().stream().noneMatch(pid -> Daemons.alive(pid, tb)), "no process left");
    }

    /** Nanosecond time at which YARN first reported the node at {@code address} LOST. */
    private static long awaitLost(String web, String address, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if ("LOST".equals(YarnCluster.nodes(web).get(address))) {
                return System.nanoTime();
            }
            Thread.sleep(200);
        }
        throw new AssertionError(
                "node " + address + " not LOST within " + limit.toSeconds() + " s: " + YarnCluster.nodes(web));
    }
}
