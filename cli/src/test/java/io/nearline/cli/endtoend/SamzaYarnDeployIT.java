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
package io.nearline.cli.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.testkit.PrometheusServer;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterPrometheus;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.YarnRest;
import io.nearline.jobs.deploy.SamzaDeploy;
import io.nearline.jobs.deploy.SamzaMetricsStream;
import io.nearline.localcluster.cluster.PrivateNetwork;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The cache updater's Samza package deployed to a local single-node YARN with Samza's own client: it
 * converges on the live cache; the cluster's Prometheus scrapes each of its containers (the package's
 * exporting launcher, found through the deploy's discovery file) and shows the shared series under the
 * job's name; stopped, it misses nothing published meanwhile once deployed again (its
 * input positions come back from its checkpoints); upgraded (killed and resubmitted), it converges on
 * what comes after; the cluster goes down with no process left, containers included.
 */
class SamzaYarnDeployIT extends LocalClusterIT {

    private static final String JOB = "nearline-cache-updater-samza";

    /**
     * Each container's exporter, as the deploy's discovery file names it, is up; and the job's series,
     * recorded by the shipped rules, carry the job's name: its consistent-through reaches the commit
     * time of a change published now.
     */
    private void prometheusScrapesEveryContainer(Path cluster, URI prometheus, Path targets, Path timed)
            throws Exception {
        int containers = new ObjectMapper()
                .readTree(targets.toFile())
                .get(0)
                .path("targets")
                .size();
        assertTrue(containers > 0, "no container in " + targets);
        long committed = System.currentTimeMillis();
        Files.writeString(
                timed,
                "{\"table\": \"profile\", \"key\": \"timed\", \"partition\": 0, \"scn\": 1, \"op\": \"UPSERT\","
                        + " \"schemaVersion\": 1, \"payload\": \"with a commit time\", \"commitTimeMillis\": "
                        + committed + "}\n");
        assertEquals(0, nearline("publish", "cdc", "--events", timed.toString(), "--cluster", cluster.toString()));
        Awaitility.await()
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(2))
                .untilAsserted(() -> {
                    JsonNode up = ClusterPrometheus.query(prometheus, "up{process=\"samza-" + JOB + "\"}");
                    assertEquals(containers, up.size(), "the job's targets: " + up);
                    for (JsonNode target : up) {
                        assertEquals(
                                "1", target.path("value").get(1).asText(), "a container's exporter is down: " + target);
                    }
                    JsonNode through = ClusterPrometheus.query(
                            prometheus, "max(nearline_consistent_through_seconds{job=\"" + JOB + "\"})");
                    assertEquals(1, through.size(), "consistent-through of " + JOB + ": " + through);
                    assertTrue(
                            through.get(0).path("value").get(1).asDouble() >= committed / 1000.0 - 0.001,
                            "consistent-through " + through + ", the change committed at " + committed);
                    JsonNode received = ClusterPrometheus.query(
                            prometheus, "sum(nearline_events_received_total{job=\"" + JOB + "\"})");
                    assertEquals(1, received.size(), "events received by " + JOB + ": " + received);
                    assertTrue(received.get(0).path("value").get(1).asDouble() >= 686, "events received " + received);
                });
    }

    private int check(Path cluster, Path... logs) {
        List<String> args = new ArrayList<>(List.of("check"));
        for (Path log : logs) {
            args.addAll(List.of("--events", log.toString()));
        }
        args.addAll(List.of("--store", "couchbase", "--cluster", cluster.toString(), "--wait", "180s"));
        return nearline(args.toArray(String[]::new));
    }

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void deployStopRedeployUpgradeAndDown() throws Exception {
        Path cluster = dir.resolve("cluster");
        String descriptor = descriptor("cache-updater-samza-yarn.yaml");
        Optional<String> noPrometheus = PrometheusServer.skipReason();
        noPrometheus.ifPresent(why -> System.out.println("SKIPPED the Prometheus part: " + why));
        List<String> up = new ArrayList<>(List.of("cluster", "up", "--yarn", "--dir", cluster.toString()));
        if (noPrometheus.isEmpty()) {
            up.add("--prometheus");
        }
        assertEquals(0, nearline(up.toArray(String[]::new)), err.toString());
        ClusterFile c = ClusterFile.read(cluster);
        Path targets = cluster.resolve("prometheus/targets/samza-" + JOB + ".json");
        try {
            assertEquals(2, nearline("deploy", descriptor, "--cluster", cluster.toString(), "--set", "cache.ttl=soon"));
            assertTrue(err.toString().contains("cache.ttl"), err.toString());
            assertTrue(YarnRest.apps(c.yarnWeb()).isEmpty(), "a bad setting must submit nothing");

            assertEquals(0, nearline("deploy", descriptor, "--cluster", cluster.toString()));
            String first = SamzaDeploy.running(c.yarnWeb(), JOB).orElseThrow().id();
            Path scrambled = scenario("cdc/scrambled.jsonl");
            assertEquals(
                    0, nearline("publish", "cdc", "--events", scrambled.toString(), "--cluster", cluster.toString()));
            assertEquals(0, check(cluster, scrambled));

            // its counters, from the metrics stream its deploy added: every event of the log written
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            long written;
            while ((written = SamzaMetricsStream.count(c.kafka(), JOB, "events.written")) < 685
                    && System.nanoTime() < deadline) {
                Thread.sleep(1000);
            }
            assertEquals(685, written, "events.written of the Samza job");
            List<Path> logs = new ArrayList<>(List.of(scrambled));
            if (noPrometheus.isEmpty()) {
                Path timed = dir.resolve("timed.jsonl");
                prometheusScrapesEveryContainer(cluster, URI.create(c.prometheusUrl()), targets, timed);
                logs.add(timed);
            }

            // stopped: what is published meanwhile is taken once it runs again, from its checkpoint on
            assertEquals(
                    2,
                    nearline("jobs", "stop", "application_1_1", "--cluster", cluster.toString()),
                    "no such app: " + err);
            assertEquals(0, nearline("jobs", "stop", first, "--cluster", cluster.toString()));
            assertFalse(Files.exists(targets), "a stopped job's containers are no targets");
            Path edge = scenario("cdc/edge-cases.jsonl");
            assertEquals(0, nearline("publish", "cdc", "--events", edge.toString(), "--cluster", cluster.toString()));
            assertEquals(0, nearline("deploy", descriptor, "--cluster", cluster.toString()));
            logs.add(edge);
            assertEquals(0, check(cluster, logs.toArray(Path[]::new)));

            String second = SamzaDeploy.running(c.yarnWeb(), JOB).orElseThrow().id();
            assertEquals(0, nearline("jobs", "upgrade", descriptor, "--cluster", cluster.toString()));
            String third = SamzaDeploy.running(c.yarnWeb(), JOB).orElseThrow().id();
            assertNotEquals(second, third);
            assertEquals(noPrometheus.isEmpty(), Files.exists(targets), "the upgraded job's targets");
            Path after = Files.writeString(
                    dir.resolve("after-upgrade.jsonl"),
                    "{\"table\": \"profile\", \"key\": \"after-upgrade\", \"partition\": 0, \"scn\": 9, \"op\": \"UPSERT\","
                            + " \"schemaVersion\": 1, \"payload\": \"after the upgrade\"}\n");
            assertEquals(0, nearline("publish", "cdc", "--events", after.toString(), "--cluster", cluster.toString()));
            logs.add(after);
            assertEquals(0, check(cluster, logs.toArray(Path[]::new)));
        } finally {
            assertEquals(0, nearline("cluster", "down", "--dir", cluster.toString()));
        }
        for (Map.Entry<String, Long> p : c.processes().entrySet()) {
            assertFalse(Daemons.alive(p.getValue(), cluster), p.getKey() + " is still running");
        }
        assertTrue(Daemons.stopContainers(cluster, Duration.ofSeconds(1)).isEmpty(), "containers left");
        assertFalse(PrivateNetwork.of(cluster).exists(), "the cluster's network is still there");
    }
}
