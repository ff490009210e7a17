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

import static io.nearline.common.testkit.Tiers.SLOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.testkit.RedisServerProcess;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.FlinkRest;
import io.nearline.jobs.deploy.FlinkDeploy;
import io.nearline.localcluster.cluster.PrivateNetwork;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The deploy path end to end on a real local cluster (its own network namespace: Kafka, CouchbaseMock
 * over TCP, a Flink standalone session): deploy the shipped cache-updater descriptor, publish a change
 * log, see check converge on the live store, upgrade from a savepoint without reprocessing, publish
 * more, converge again, and take the cluster down with nothing left behind. Bad input along the way
 * fails with exit 2 and one line.
 */
class FlinkSessionDeployIT extends LocalClusterIT {

    /** The job's events.written once Flink's REST shows it (its metrics are fetched every few seconds). */
    private static long awaitWritten(ClusterFile c, String jobId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long written;
        while ((written = FlinkRest.metricSum(c.flinkRest(), jobId, "events.written")) == 0
                && System.nanoTime() < deadline) {
            Thread.sleep(500);
        }
        assertTrue(written > 0, "job " + jobId + " shows no events.written");
        return written;
    }

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void deployPublishConvergeUpgradeConvergeAndDown() throws Exception {
        Path cluster = dir.resolve("cluster");
        String descriptor = descriptor("cache-updater-flink-session.yaml");
        assertEquals(2, nearline("deploy", descriptor, "--cluster", cluster.toString()), "no cluster yet");
        assertTrue(err.toString().contains("no cluster in"), err.toString());

        assertEquals(0, nearline("cluster", "up", "--flink", "--dir", cluster.toString()), err.toString());
        ClusterFile c = ClusterFile.read(cluster);
        try {
            Path misspelt = Files.writeString(
                    dir.resolve("bad.yaml"),
                    Files.readString(Path.of(descriptor)).replace("parallelism:", "paralelism:"));
            assertEquals(2, nearline("deploy", misspelt.toString(), "--cluster", cluster.toString()));
            assertTrue(err.toString().contains("did you mean 'parallelism'"), err.toString());
            assertEquals(2, nearline("deploy", descriptor, "--cluster", cluster.toString(), "--set", "cache.ttl=soon"));
            assertTrue(err.toString().contains("cache.ttl"), err.toString());
            assertEquals(
                    2,
                    nearline(
                            "deploy", descriptor, "--cluster", cluster.toString(), "--from-savepoint", dir.toString()));

            assertEquals(0, nearline("deploy", descriptor, "--cluster", cluster.toString()));
            String first = FlinkDeploy.runningJob(c.flinkRest(), "nearline-cache-updater")
                    .orElseThrow();

            Path scrambled = scenario("cdc/scrambled.jsonl");
            assertEquals(
                    0, nearline("publish", "cdc", "--events", scrambled.toString(), "--cluster", cluster.toString()));
            assertEquals(0, checkLive(cluster, "couchbase", "120s", scrambled));
            long writtenBefore = awaitWritten(c, first);

            // negative control: a change the cluster never saw is reported, exit 1
            Path unseen = Files.writeString(
                    dir.resolve("unseen.jsonl"),
                    "{\"table\": \"profile\", \"key\": \"never-published\", \"partition\": 0, \"scn\": 5, "
                            + "\"op\": \"UPSERT\", \"schemaVersion\": 1, \"payload\": \"x\"}\n");
            assertEquals(
                    1,
                    nearline(
                            "check",
                            "--events",
                            unseen.toString(),
                            "--store",
                            "couchbase",
                            "--cluster",
                            cluster.toString()));

            assertEquals(2, nearline("jobs", "stop", "0".repeat(32), "--cluster", cluster.toString()), "no such job");

            assertEquals(0, nearline("jobs", "upgrade", descriptor, "--cluster", cluster.toString()));
            String second = FlinkDeploy.runningJob(c.flinkRest(), "nearline-cache-updater")
                    .orElseThrow();
            assertNotEquals(first, second);

            Path edge = scenario("cdc/edge-cases.jsonl");
            assertEquals(0, nearline("publish", "cdc", "--events", edge.toString(), "--cluster", cluster.toString()));
            assertEquals(0, checkLive(cluster, "couchbase", "120s", scrambled, edge));
            // resumed from the savepoint's offsets: only the new events are written again
            long writtenAfter = awaitWritten(c, second);
            assertTrue(
                    writtenAfter > 0 && writtenAfter < writtenBefore,
                    "the upgraded job wrote " + writtenAfter + " (before: " + writtenBefore + ")");

            // the bootstrapper as a job of its own: a snapshot into the same cache, under the same rules
            Path snapshot = scenario("bootstrap/snapshot.jsonl");
            assertEquals(
                    0,
                    nearline("deploy", descriptor("bootstrapper-flink-session.yaml"), "--cluster", cluster.toString()));
            assertEquals(
                    0,
                    nearline(
                            "publish", "snapshot", "--snapshot", snapshot.toString(), "--cluster", cluster.toString()));
            assertEquals(0, checkLive(cluster, "couchbase", "120s", scrambled, edge, snapshot));

            Path dump = dir.resolve("state.jsonl");
            assertEquals(
                    0,
                    nearline(
                            "dump",
                            "--store",
                            "couchbase",
                            "--cluster",
                            cluster.toString(),
                            "--keys-from",
                            scrambled.toString(),
                            "--out",
                            dump.toString()));
            assertFalse(Files.readAllLines(dump).isEmpty());
        } finally {
            assertEquals(0, nearline("cluster", "down", "--dir", cluster.toString()));
        }
        for (Map.Entry<String, Long> p : c.processes().entrySet()) {
            assertFalse(Daemons.alive(p.getValue(), cluster), p.getKey() + " is still running");
        }
        assertFalse(PrivateNetwork.of(cluster).exists(), "the cluster's network is still there");
    }

    /**
     * The same path into Redis: a cluster whose cache is Debian's redis-server, the Redis descriptor
     * deployed, a change log published, check converging on the live Redis. A descriptor naming Redis
     * on a Couchbase cluster, or a check of the wrong store, fails with exit 2 and one line.
     */
    @Tag(SLOW)
    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void onRedisDeployPublishConvergeAndDown() throws Exception {
        Optional<String> skip = RedisServerProcess.skipReason();
        Assumptions.assumeTrue(skip.isEmpty(), () -> skip.orElse(""));
        Path cluster = dir.resolve("cluster-redis");
        assertEquals(
                0,
                nearline("cluster", "up", "--flink", "--store", "redis", "--dir", cluster.toString()),
                err.toString());
        ClusterFile c = ClusterFile.read(cluster);
        try {
            assertEquals("redis", c.store());
            assertTrue(
                    c.jobSettings().get("redis.password").startsWith("file:"),
                    c.jobSettings().toString());
            String descriptor = descriptor("cache-updater-flink-session-redis.yaml");
            assertEquals(0, nearline("deploy", descriptor, "--cluster", cluster.toString()), err.toString());
            Path scrambled = scenario("cdc/scrambled.jsonl");
            assertEquals(
                    0, nearline("publish", "cdc", "--events", scrambled.toString(), "--cluster", cluster.toString()));
            assertEquals(0, checkLive(cluster, "redis", "120s", scrambled), err.toString());
            assertEquals(
                    2,
                    nearline(
                            "check",
                            "--events",
                            scrambled.toString(),
                            "--store",
                            "couchbase",
                            "--cluster",
                            cluster.toString()));
            assertTrue(err.toString().contains("pass --store redis"), err.toString());
            Path dump = dir.resolve("redis-state.jsonl");
            assertEquals(
                    0,
                    nearline(
                            "dump",
                            "--store",
                            "redis",
                            "--cluster",
                            cluster.toString(),
                            "--keys-from",
                            scrambled.toString(),
                            "--out",
                            dump.toString()));
            assertFalse(Files.readAllLines(dump).isEmpty());
            // a descriptor naming a store the cluster does not run is refused before anything starts
            assertEquals(
                    2,
                    nearline(
                            "deploy",
                            descriptor("cache-updater-flink-session.yaml"),
                            "--cluster",
                            cluster.toString(),
                            "--set",
                            "cache.store=couchbase"));
            assertTrue(err.toString().contains("cache.store=couchbase"), err.toString());
        } finally {
            assertEquals(0, nearline("cluster", "down", "--dir", cluster.toString()));
        }
        assertTrue(c.processes().containsKey("redis"), c.processes().toString());
        for (Map.Entry<String, Long> p : c.processes().entrySet()) {
            assertFalse(Daemons.alive(p.getValue(), cluster), p.getKey() + " is still running");
        }
        assertFalse(PrivateNetwork.of(cluster).exists(), "the cluster's network is still there");
    }
}
