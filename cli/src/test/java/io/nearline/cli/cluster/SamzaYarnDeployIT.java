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
package io.nearline.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.localcluster.cluster.ClusterFile;
import io.nearline.localcluster.cluster.Daemons;
import io.nearline.localcluster.cluster.PrivateNetwork;
import io.nearline.localcluster.cluster.YarnCluster;
import io.nearline.localcluster.deploy.SamzaDeploy;
import io.nearline.localcluster.deploy.SamzaMetricsStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The cache updater's Samza package deployed to a local single-node YARN with Samza's own client: it
 * converges on the live cache; stopped, it misses nothing published meanwhile once deployed again (its
 * input positions come back from its checkpoints); upgraded (killed and resubmitted), it converges on
 * what comes after; the cluster goes down with no process left, containers included.
 */
class SamzaYarnDeployIT extends LocalClusterIT {

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
        assertEquals(0, nearline("cluster", "up", "--yarn", "--dir", cluster.toString()), err.toString());
        ClusterFile c = ClusterFile.read(cluster);
        try {
            assertEquals(2, nearline("deploy", descriptor, "--cluster", cluster.toString(), "--set", "cache.ttl=soon"));
            assertTrue(err.toString().contains("cache.ttl"), err.toString());
            assertTrue(YarnCluster.apps(c.yarnWeb()).isEmpty(), "a bad setting must submit nothing");

            assertEquals(0, nearline("deploy", descriptor, "--cluster", cluster.toString()));
            String first = SamzaDeploy.running(c.yarnWeb(), "nearline-cache-updater-samza")
                    .orElseThrow()
                    .id();
            Path scrambled = scenario("cdc/scrambled.jsonl");
            assertEquals(
                    0, nearline("publish", "cdc", "--events", scrambled.toString(), "--cluster", cluster.toString()));
            assertEquals(0, check(cluster, scrambled));

            // its counters, from the metrics stream its deploy added: every event of the log written
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            long written;
            while ((written = SamzaMetricsStream.count(c.kafka(), "nearline-cache-updater-samza", "events.written"))
                            < 685
                    && System.nanoTime() < deadline) {
                Thread.sleep(1000);
            }
            assertEquals(685, written, "events.written of the Samza job");

            // stopped: what is published meanwhile is taken once it runs again, from its checkpoint on
            assertEquals(
                    2,
                    nearline("jobs", "stop", "application_1_1", "--cluster", cluster.toString()),
                    "no such app: " + err);
            assertEquals(0, nearline("jobs", "stop", first, "--cluster", cluster.toString()));
            Path edge = scenario("cdc/edge-cases.jsonl");
            assertEquals(0, nearline("publish", "cdc", "--events", edge.toString(), "--cluster", cluster.toString()));
            assertEquals(0, nearline("deploy", descriptor, "--cluster", cluster.toString()));
            assertEquals(0, check(cluster, scrambled, edge));

            String second = SamzaDeploy.running(c.yarnWeb(), "nearline-cache-updater-samza")
                    .orElseThrow()
                    .id();
            assertEquals(0, nearline("jobs", "upgrade", descriptor, "--cluster", cluster.toString()));
            String third = SamzaDeploy.running(c.yarnWeb(), "nearline-cache-updater-samza")
                    .orElseThrow()
                    .id();
            assertNotEquals(second, third);
            Path after = Files.writeString(
                    dir.resolve("after-upgrade.jsonl"),
                    "{\"table\": \"profile\", \"key\": \"after-upgrade\", \"partition\": 0, \"scn\": 9, \"op\": \"UPSERT\","
                            + " \"schemaVersion\": 1, \"payload\": \"after the upgrade\"}\n");
            assertEquals(0, nearline("publish", "cdc", "--events", after.toString(), "--cluster", cluster.toString()));
            assertEquals(0, check(cluster, scrambled, edge, after));
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
