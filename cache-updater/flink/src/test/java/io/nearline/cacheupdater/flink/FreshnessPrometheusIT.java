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
package io.nearline.cacheupdater.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.config.Config;
import io.nearline.common.events.ChangeEventCodec;
import io.nearline.common.testkit.ChangeEventGenerator;
import io.nearline.common.testkit.LocalProcesses;
import io.nearline.common.testkit.PrometheusServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The freshness histogram and the {@code consistent-through} watermark as Flink's Prometheus reporter
 * publishes them while the job runs: labelled by table, partition and bucket, bucket bounds kept as
 * they are (the shipped {@code filterLabelValueCharacters: "false"}), the watermark a recent commit time.
 * The recording rules in {@code jobs/monitoring/} read exactly these names.
 */
class FreshnessPrometheusIT {

    private static final String PREFIX = "flink_taskmanager_job_task_operator_nearline_";
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    /** The value of the sample of {@code name} whose labels include {@code labels}; NaN when there is none. */
    static double sample(String body, String name, Map<String, String> labels) {
        for (String line : body.lines().toList()) {
            if (!line.startsWith(name + "{")) {
                continue;
            }
            Map<String, String> found = new HashMap<>();
            Matcher m = LABEL.matcher(line.substring(0, line.lastIndexOf('}')));
            while (m.find()) {
                found.put(m.group(1), m.group(2));
            }
            if (found.entrySet().containsAll(labels.entrySet())) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return Double.NaN;
    }

    @Timeout(180)
    @Test
    void theJobPublishesItsFreshnessAndWatermarkWhileItRuns(@TempDir Path dir) throws Exception {
        int port = LocalProcesses.freePort();
        Configuration flink = new Configuration();
        flink.setString(
                "metrics.reporter.prom.factory.class", "org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
        flink.setString("metrics.reporter.prom.port", Integer.toString(port));
        flink.setString("metrics.reporter.prom.filterLabelValueCharacters", "false");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(1);
        Config config = Config.of(Map.of(
                "kafka.bootstrap-servers", "127.0.0.1:9", // the test's I/O is given: no broker is reached
                "cache.store", "rocksdb",
                "rocksdb.path", dir.resolve("cache").toString(),
                "write.batch.max-keys", "16",
                "write.batch.max-delay", "100ms"));
        long started = System.currentTimeMillis();
        // each change committed as it is made, 100 a second for at most a minute: the job runs while it is read
        DataGeneratorSource<KafkaInput> changes = new DataGeneratorSource<>(
                i -> new KafkaInput("cdc", 0, i, null, committedNow(i)),
                6_000,
                RateLimiterStrategy.perSecond(100),
                TypeInformation.of(KafkaInput.class));
        CacheUpdaterJob.define(env, new CacheUpdaterIo(changes, null, new CacheUpdaterJobIT.Collected()), config);
        JobClient job = env.executeAsync("cache-updater-metrics-test");
        try {
            HttpClient http = HttpClient.newHttpClient();
            URI metrics = URI.create("http://127.0.0.1:" + port + "/metrics");
            Awaitility.await()
                    .atMost(Duration.ofSeconds(50))
                    .ignoreExceptions()
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        String body = http.send(
                                        HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString())
                                .body();
                        Map<String, String> series = Map.of("table", "inventory.items", "partition", "0");
                        Map<String, String> all = new HashMap<>(series);
                        all.put("le", "+Inf");
                        assertTrue(
                                sample(body, PREFIX + "table_partition_le_freshness_bucket", all) > 0,
                                "no +Inf bucket counted yet");
                        all.put("le", "0.25");
                        assertTrue(
                                sample(body, PREFIX + "table_partition_le_freshness_bucket", all) >= 0,
                                "the bucket bounds as they are");
                        long watermark = (long) sample(body, PREFIX + "table_partition_consistent_through", series);
                        assertTrue(
                                watermark >= started && watermark <= System.currentTimeMillis(),
                                "consistent-through " + watermark + " is not a commit time of this run");
                    });
            throughPrometheus(dir, port);
        } finally {
            try {
                job.cancel().get();
            } catch (Exception ended) { // the bounded input ran out first: the local cluster is gone with it
            }
        }
    }

    /**
     * Debian's Prometheus scraping the job with the shipped rules: every series the rules record for
     * the cache updater, and every query of the shipped dashboard but the verifier's (PrometheusClusterIT reads that one from a deployed verifier), has data. A series
     * renamed in the job or in the rules fails here.
     */
    private static void throughPrometheus(Path dir, int reporterPort) throws Exception {
        Optional<String> skip = PrometheusServer.skipReason();
        if (skip.isPresent()) {
            System.out.println("the Prometheus part " + skip.get());
            return;
        }
        Path monitoring = Path.of("../../jobs/monitoring");
        String dashboard = Files.readString(monitoring.resolve("nearline-dashboard.json"));
        List<String> queries = new ArrayList<>();
        for (String query : PrometheusServer.dashboardQueries(dashboard)) {
            if (!query.contains("nearline_verify_")) {
                queries.add(query.replace("$__rate_interval", "1m").replace("$job", "cache-updater-metrics-test"));
            }
        }
        assertTrue(queries.size() >= 6, "the dashboard's queries: " + queries);
        List<String> recorded = List.of(
                "nearline_freshness_seconds_bucket{le=\"+Inf\"}",
                "nearline_freshness_seconds_count",
                "nearline_freshness_seconds_sum",
                "nearline_consistent_through_seconds",
                "nearline_table_writes_total",
                "nearline_events_rejected_total",
                "nearline_events_received_total",
                "nearline_write_retries_unavailable_total");
        Path data = Files.createDirectories(dir.resolve("prometheus"));
        try (PrometheusServer prometheus = PrometheusServer.start(
                data,
                "flink",
                List.of("127.0.0.1:" + reporterPort),
                List.of(monitoring.resolve("nearline-rules.yaml")))) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(40))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        for (String query : recorded) {
                            JsonNode result = prometheus.query(query + "");
                            assertTrue(result.size() > 0, query + " has no data");
                            assertEquals(
                                    "cache-updater-metrics-test",
                                    result.get(0).path("metric").path("job").asText(),
                                    query + ": the job's name as its label");
                        }
                        for (String query : queries) {
                            assertTrue(prometheus.query(query).size() > 0, "dashboard query without data: " + query);
                        }
                    });
            long through = prometheus
                    .query("nearline_consistent_through_seconds")
                    .get(0)
                    .path("value")
                    .get(1)
                    .asLong();
            assertTrue(Math.abs(System.currentTimeMillis() / 1000 - through) < 30, "consistent-through " + through);
        }
    }

    private static byte[] committedNow(long i) {
        if (i % 500 == 7) {
            return ("not a change " + i).getBytes(StandardCharsets.UTF_8); // dead-lettered: a rejection series
        }
        ChangeEvent e = ChangeEventGenerator.event("member:" + (i % 50), 0, i + 1, false);
        e.setTable("inventory.items");
        e.setCommitTimeMillis(System.currentTimeMillis());
        return ChangeEventCodec.encode(e);
    }
}
