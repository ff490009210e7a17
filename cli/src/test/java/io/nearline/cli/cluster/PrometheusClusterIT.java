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
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nearline.cli.CliRun;
import io.nearline.common.testkit.PrometheusServer;
import io.nearline.localcluster.cluster.ClusterDatabase;
import io.nearline.localcluster.cluster.ClusterFile;
import io.nearline.localcluster.databases.PostgresServer;
import io.nearline.localcluster.databases.SqlWorkload;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What an operator sees: {@code cluster up --postgres --flink --prometheus}, the Debezium connector and
 * the cache updater deployed, writers racing on the three tables; the cluster's Prometheus, with the
 * shipped rules, shows each table's freshness and a {@code consistent-through} that follows the
 * database's commits, and every target it found on its own is up.
 */
class PrometheusClusterIT extends LocalClusterIT {

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void prometheusShowsEachTablesFreshnessAndAWatermarkThatFollowsTheDatabase() throws Exception {
        Optional<String> skip = PostgresServer.skipReason().or(PrometheusServer::skipReason);
        Assumptions.assumeTrue(skip.isEmpty(), () -> skip.orElse(""));
        // the database runs as its package's user (the test runs as root): it must reach the cluster's directory
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        Path cluster = dir.resolve("cluster");
        assertEquals(
                0,
                nearline("cluster", "up", "--postgres", "--flink", "--prometheus", "--dir", cluster.toString()),
                err.toString());
        try {
            ClusterFile c = ClusterFile.read(cluster);
            URI prometheus = URI.create(c.prometheusUrl());
            CliRun status = CliRun.of("cluster", "status", "--dir", cluster.toString());
            assertTrue(status.out().contains("prometheus   " + c.prometheusUrl() + " (reachable)"), status.out());

            assertEquals(0, nearline("deploy", descriptor("debezium-postgres.yaml"), "--cluster", cluster.toString()));
            assertEquals(
                    0,
                    nearline(
                            "deploy",
                            descriptor("cache-updater-flink-session.yaml"),
                            "--cluster",
                            cluster.toString(),
                            "--set",
                            "cdc.format=debezium-json"),
                    err.toString());
            Map<String, String> db = c.database("postgres");
            SqlWorkload.Result written = new SqlWorkload(SqlWorkload.Dialect.POSTGRES, 4, 600, 60, 0, 1)
                    .run(() -> ClusterDatabase.connect(db), Duration.ofSeconds(90));
            long lastCommit = System.currentTimeMillis() / 1000;
            assertTrue(written.committed() > 300, written.toString());

            Awaitility.await()
                    .atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofSeconds(2))
                    .untilAsserted(() -> {
                        Set<String> fresh = new HashSet<>();
                        for (JsonNode s : PrometheusServer.query(prometheus, "nearline_freshness_seconds_count > 0")) {
                            fresh.add(s.path("metric").path("table").asText());
                        }
                        assertEquals(new HashSet<>(ClusterFile.tables(db)), fresh, "tables with freshness counted");
                        JsonNode p99 = PrometheusServer.query(
                                prometheus,
                                "histogram_quantile(0.99, sum by (le) (nearline_freshness_seconds_bucket))");
                        assertTrue(
                                p99.size() == 1
                                        && p99.get(0).path("value").get(1).asDouble() < 60,
                                "p99 " + p99);
                        JsonNode through =
                                PrometheusServer.query(prometheus, "min(nearline_consistent_through_seconds)");
                        long watermark = through.get(0).path("value").get(1).asLong();
                        assertTrue(
                                Math.abs(watermark - lastCommit) < 30,
                                "consistent-through " + watermark + ", the last commit at " + lastCommit);
                    });
            for (JsonNode target : PrometheusServer.query(prometheus, "up")) {
                assertEquals(
                        "1",
                        target.path("value").get(1).asText(),
                        "a target the cluster's discovery files name is down: " + target);
            }
            assertTrue(
                    PrometheusServer.query(prometheus, "up{process=\"connect\"}")
                                    .size()
                            == 1,
                    "the Connect worker found");
        } finally {
            assertEquals(0, nearline("cluster", "down", "--dir", cluster.toString()));
        }
    }
}
