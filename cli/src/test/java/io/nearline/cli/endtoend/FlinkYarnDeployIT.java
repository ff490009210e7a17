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

import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.FlinkRest;
import io.nearline.jobs.deploy.FlinkYarn;
import io.nearline.localcluster.cluster.PrivateNetwork;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The cache updater on YARN in Flink's application mode: deployed with Flink's own client, converging
 * on the live cache, upgraded through a savepoint (a new application resumes from it, so it writes only
 * what is new), converging again; the cluster goes down with no container left.
 */
class FlinkYarnDeployIT extends LocalClusterIT {

    private static final String NAME = "nearline-cache-updater-yarn";

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void deployConvergeUpgradeFromASavepointAndDown() throws Exception {
        Path cluster = dir.resolve("cluster");
        String descriptor = descriptor("cache-updater-flink-yarn.yaml");
        assertEquals(0, nearline("cluster", "up", "--yarn", "--dir", cluster.toString()), err.toString());
        ClusterFile c = ClusterFile.read(cluster);
        try {
            assertEquals(0, nearline("deploy", descriptor, "--cluster", cluster.toString()), err.toString());
            Path scrambled = scenario("cdc/scrambled.jsonl");
            assertEquals(
                    0, nearline("publish", "cdc", "--events", scrambled.toString(), "--cluster", cluster.toString()));
            assertEquals(0, checkLive(cluster, "couchbase", "180s", scrambled));
            FlinkYarn.Running first = FlinkYarn.running(c, NAME).orElseThrow();

            assertEquals(0, nearline("jobs", "upgrade", descriptor, "--cluster", cluster.toString()));
            FlinkYarn.Running second = awaitRunning(c);
            assertNotEquals(first.appId(), second.appId());

            Path after = Files.writeString(
                    dir.resolve("after-upgrade.jsonl"),
                    "{\"table\": \"profile\", \"key\": \"after-upgrade\", \"partition\": 0, \"scn\": 3, \"op\": \"UPSERT\","
                            + " \"schemaVersion\": 1, \"payload\": \"after the upgrade\"}\n");
            assertEquals(0, nearline("publish", "cdc", "--events", after.toString(), "--cluster", cluster.toString()));
            assertEquals(0, checkLive(cluster, "couchbase", "180s", scrambled, after));
            // resumed from the savepoint's offsets: the new application wrote the one new event, not the old ones
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            long written;
            while ((written = FlinkRest.metricSum(second.rest(), second.jobId(), "events.written")) == 0
                    && System.nanoTime() < deadline) {
                Thread.sleep(500);
            }
            assertEquals(1, written, "events written by the upgraded job");
        } finally {
            assertEquals(0, nearline("cluster", "down", "--dir", cluster.toString()));
        }
        assertTrue(Daemons.stopContainers(cluster, Duration.ofSeconds(1)).isEmpty(), "containers left");
        assertFalse(PrivateNetwork.of(cluster).exists(), "the cluster's network is still there");
    }

    private static FlinkYarn.Running awaitRunning(ClusterFile c) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            var running = FlinkYarn.running(c, NAME);
            if (running.isPresent()) {
                return running.get();
            }
            Thread.sleep(500);
        }
        throw new AssertionError(NAME + " is not running after the upgrade");
    }
}
