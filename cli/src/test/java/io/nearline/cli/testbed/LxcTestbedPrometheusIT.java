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
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nearline.common.testkit.PrometheusServer;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterPrometheus;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.lxctestbed.testbed.LxcNode;
import io.nearline.lxctestbed.testbed.TestbedCommand;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code testbed up --prometheus}: Debian's Prometheus on the bridge, its targets kept where YARN runs
 * the jobs' containers. A Samza cache updater deployed to two LXC nodes is scraped on the node YARN put
 * its container on, with the job's own series; the node is stopped hard, YARN runs the container on
 * the other node, and the target follows it there, answering with the events published after the move.
 */
class LxcTestbedPrometheusIT {

    private static final String JOB = "nearline-cache-updater-samza";

    /** Kept when the test fails: DIR/logs has every daemon's log, the follower's (yarn-targets.log) too. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private final LxcTestbedCli cli = new LxcTestbedCli();

    @BeforeAll
    static void home() {
        LxcTestbedCli.requireTestbed("testbed Prometheus IT", PrometheusServer.skipReason());
    }

    private int nearline(String... args) {
        return cli.nearline(args);
    }

    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    @Test
    void theTargetsFollowTheContainerToTheNodeYarnMovesItTo() throws Exception {
        Path tb = dir.resolve("testbed");
        try {
            assertEquals(
                    0, nearline("testbed", "up", "--nodes", "2", "--prometheus", "--dir", tb.toString()), cli.err());
            ClusterFile c = ClusterFile.read(tb);
            URI prometheus = URI.create(c.prometheusUrl());
            assertTrue(c.processes().containsKey("yarn-targets"), "the follower runs: " + c.processes());
            assertEquals(
                    0,
                    nearline("deploy", "../jobs/deploy/cache-updater-samza-yarn.yaml", "--cluster", tb.toString()),
                    cli.err());
            publish(tb, "before", 200);
            Set<String> first = awaitScraped(prometheus, Set.of(c.address()), 200);
            String host = first.iterator().next();
            LxcNode victim = TestbedCommand.nodes(tb).stream()
                    .filter(n -> n.address().equals(host))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("scraped on " + host + ", no node of the testbed"));
            System.out.println("the container's exporter scraped on " + victim.name() + " (" + host + ")");

            long stopped = System.nanoTime();
            victim.kill();
            publish(tb, "after", 100);
            Set<String> moved = awaitScraped(prometheus, Set.of(c.address(), host), 100);
            System.out.printf(
                    "after %s stopped: scraped on %s, %.0f s later%n",
                    victim.name(), moved, (System.nanoTime() - stopped) / 1e9);
            assertFalse(moved.contains(host));
        } finally {
            assertEquals(0, nearline("testbed", "down", "--dir", tb.toString()), cli.err());
        }
        ClusterFile after = ClusterFile.read(tb);
        assertTrue(after.processes().values().stream().noneMatch(pid -> Daemons.alive(pid, tb)), "no process left");
    }

    /** {@code count} changes with their commit times onto the CDC topic, keys named after {@code tag}. */
    private void publish(Path tb, String tag, int count) throws Exception {
        StringBuilder events = new StringBuilder();
        long now = System.currentTimeMillis();
        for (int i = 0; i < count; i++) {
            events.append("{\"table\": \"profile\", \"key\": \"")
                    .append(tag)
                    .append('-')
                    .append(i)
                    .append("\", \"partition\": 0, \"scn\": ")
                    .append(now + i)
                    .append(", \"op\": \"UPSERT\", \"schemaVersion\": 1, \"payload\": \"p\", \"commitTimeMillis\": ")
                    .append(now)
                    .append("}\n");
        }
        Path file = Files.writeString(dir.resolve(tag + ".jsonl"), events.toString());
        assertEquals(0, nearline("publish", "cdc", "--events", file.toString(), "--cluster", tb.toString()));
    }

    /**
     * Waits until the job's every target is up on hosts other than {@code not}, and the job's series read
     * there count at least {@code received} events; returns those hosts.
     */
    private static Set<String> awaitScraped(URI prometheus, Set<String> not, int received) {
        Set<String> hosts = new TreeSet<>();
        Awaitility.await()
                .atMost(Duration.ofMinutes(4))
                .pollInterval(Duration.ofSeconds(2))
                .untilAsserted(() -> {
                    hosts.clear();
                    JsonNode up = ClusterPrometheus.query(prometheus, "up{process=\"samza-" + JOB + "\"}");
                    assertEquals(1, up.size(), "one container, one target: " + up);
                    List<String> instances = new ArrayList<>();
                    for (JsonNode target : up) {
                        String instance = target.path("metric").path("instance").asText();
                        instances.add(instance);
                        hosts.add(instance.substring(0, instance.lastIndexOf(':')));
                        assertEquals("1", target.path("value").get(1).asText(), "down: " + target);
                    }
                    assertTrue(hosts.stream().noneMatch(not::contains), "scraped on " + hosts + ", not on " + not);
                    JsonNode count = ClusterPrometheus.query(
                            prometheus,
                            // the exporter's own series, read on that instance (the recorded one sums instances)
                            "sum(nearline_samza_events_received{job=\"" + JOB + "\", instance=\"" + instances.get(0)
                                    + "\"})");
                    assertEquals(1, count.size(), "the job's series on " + instances + ": " + count);
                    assertTrue(count.get(0).path("value").get(1).asDouble() >= received, "received " + count);
                });
        return hosts;
    }
}
