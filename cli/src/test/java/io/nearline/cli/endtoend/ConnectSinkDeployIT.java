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
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cli.CliRun;
import io.nearline.common.testkit.Printed;
import io.nearline.common.testkit.RedisServerProcess;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ConnectRest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The cache sink connector on the local cluster's Kafka Connect worker, from its shipped descriptor
 * ({@code jobs/deploy/cache-updater-connect.yaml}), into the cluster's Couchbase (CouchbaseMock over
 * TCP) or Redis: a change log published, {@code check --wait} converging on the live cache, {@code jobs
 * list} showing the connector with its events.written, an upgrade in place keeping its offsets (on
 * Redis with the plugin put on the worker again and the worker restarted; a second log converges
 * without the first read again), and a stop. Bad settings are refused by
 * Connect's validation with the jobs' one-line errors, before anything runs.
 */
class ConnectSinkDeployIT extends LocalClusterIT {

    private static final Pattern WRITTEN =
            Pattern.compile("connect:nearline-cache-sink\\s+\\S+\\s+RUNNING\\s+([\\d,]+)");

    /** The connector's events.written in {@code jobs list}. */
    private static long written(String cluster) {
        Printed list = CliRun.of("jobs", "list", "--cluster", cluster);
        Matcher written = WRITTEN.matcher(list.out());
        assertTrue(written.find(), list.out());
        return Long.parseLong(written.group(1).replace(",", ""));
    }

    /**
     * nearline_events_written summed over the connector's tasks, as the worker's Prometheus endpoint
     * (the JMX exporter with the shipped rules) gives it.
     */
    private static long prometheusWritten(ClusterFile c) throws Exception {
        double sum = 0;
        boolean found = false;
        for (String line : prometheus(c).lines().toList()) {
            if (line.startsWith("nearline_events_written{") && line.contains("connector=\"nearline-cache-sink\"")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                found = true;
            }
        }
        assertTrue(found, "no nearline_events_written on the worker's Prometheus endpoint");
        return Math.round(sum);
    }

    /** What the worker's Prometheus endpoint (the JMX exporter with the shipped rules) serves now. */
    private static String prometheus(ClusterFile c) throws Exception {
        String host = URI.create(c.connectRestUrl()).getHost();
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(
                                        URI.create("http://" + host + ":" + ConnectRest.PROMETHEUS_PORT + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    /**
     * The labelled series through the shipped exporter rules, as jobs/monitoring/nearline-rules.yaml
     * reads them: the freshness histogram and the watermark per table and partition, the writes per
     * table and outcome.
     */
    private static void assertLabelledSeries(ClusterFile c) throws Exception {
        List<String> lines = prometheus(c)
                .lines()
                .filter(l -> l.contains("connector=\"nearline-cache-sink\"") && l.contains("table=\"profile\""))
                .toList();
        for (String series : List.of(
                "nearline_connect_freshness_le{",
                "nearline_connect_freshness_events{",
                "nearline_connect_freshness_sum_ms{",
                "nearline_connect_consistent_through{",
                "nearline_connect_table_writes{")) {
            assertTrue(lines.stream().anyMatch(l -> l.startsWith(series)), series + " missing: " + lines);
        }
        assertTrue(
                lines.stream()
                        .anyMatch(l -> l.startsWith("nearline_connect_freshness_le{")
                                && l.contains("le=\"+Inf\"")
                                && l.contains("partition=\"")),
                "the +Inf bucket with its partition: " + lines);
        assertTrue(
                lines.stream()
                        .anyMatch(l -> l.startsWith("nearline_connect_table_writes{")
                                && l.contains("outcome=\"applied\"")
                                && !l.endsWith(" 0.0")),
                "applied writes of table profile: " + lines);
    }

    @ParameterizedTest
    @ValueSource(strings = {"redis", "couchbase"})
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void theSinkDeploysFromItsDescriptorAndKeepsTheCacheEqual(String store) throws Exception {
        if (store.equals("redis")) {
            Optional<String> skip = RedisServerProcess.skipReason();
            Assumptions.assumeTrue(skip.isEmpty(), () -> skip.orElse(""));
        }
        Path cluster = dir.resolve("cluster-" + store);
        assertEquals(
                0,
                nearline("cluster", "up", "--connect", "--store", store, "--dir", cluster.toString()),
                err.toString());
        try {
            String descriptor = descriptor("cache-updater-connect.yaml");
            String at = cluster.toString();
            // refused by the connector's own validation, through Connect's: exit 2, the key named
            assertEquals(2, nearline("deploy", descriptor, "--cluster", at, "--set", "cache.tll=1d"));
            assertTrue(err.toString().contains("Did you mean 'cache.ttl'?"), err.toString());
            assertEquals(
                    2,
                    nearline(
                            "deploy",
                            descriptor,
                            "--cluster",
                            at,
                            "--set",
                            "cache.store=rocksdb",
                            "--set",
                            "rocksdb.path=/tmp/nowhere"));
            assertTrue(err.toString().contains("not for a connector"), err.toString());

            assertEquals(0, nearline("deploy", descriptor, "--cluster", at), err.toString());
            Path scrambled = scenario("cdc/scrambled.jsonl");
            assertEquals(0, nearline("publish", "cdc", "--events", scrambled.toString(), "--cluster", at));
            assertEquals(0, checkLive(cluster, store, "120s", scrambled), err.toString());

            long events = Files.readAllLines(scrambled).stream()
                    .filter(l -> !l.isBlank())
                    .count();
            assertEquals(events, written(at), "events.written of the connector's tasks");
            assertEquals(events, prometheusWritten(ClusterFile.read(cluster)), "the same count through Prometheus");
            assertLabelledSeries(ClusterFile.read(cluster));

            // a new config in place (on Redis with the plugin put on the worker again, the worker restarted):
            // the tasks restart from the committed offsets, nothing read twice
            List<String> upgrade = new ArrayList<>(
                    List.of("jobs", "upgrade", descriptor, "--cluster", at, "--set", "write.batch.max-keys=100"));
            if (store.equals("redis")) {
                upgrade.addAll(List.of(
                        "--plugin",
                        Path.of("../cache-updater/connect/target/nearline-cache-sink-connect.zip")
                                .toAbsolutePath()
                                .normalize()
                                .toString()));
            }
            assertEquals(0, nearline(upgrade.toArray(String[]::new)), err.toString());
            Path edge = scenario("cdc/edge-cases.jsonl");
            assertEquals(0, nearline("publish", "cdc", "--events", edge.toString(), "--cluster", at));
            assertEquals(0, checkLive(cluster, store, "120s", scrambled, edge), err.toString());
            // a task started again in the same worker goes on from its predecessor's count; a restarted worker
            // (Redis, the plugin put on again) counts from zero. Either way the upgraded tasks add at most the
            // second log: had they read from the start, they would count the first log again
            long before = store.equals("redis") ? 0 : events;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            long again;
            while ((again = written(at)) <= before && System.nanoTime() < deadline) {
                Thread.sleep(500);
            }
            long added = again - before;
            assertTrue(added > 0 && added <= Files.readAllLines(edge).size(), "after the upgrade: " + again);

            assertEquals(0, nearline("jobs", "stop", "connect:nearline-cache-sink", "--cluster", at), err.toString());
            assertTrue(
                    !CliRun.of("jobs", "list", "--cluster", at).out().contains("connect:nearline-cache-sink"),
                    "stopped");
        } finally {
            assertEquals(0, nearline("cluster", "down", "--dir", cluster.toString()));
        }
    }
}
