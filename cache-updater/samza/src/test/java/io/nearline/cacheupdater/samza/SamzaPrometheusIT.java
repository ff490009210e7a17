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
package io.nearline.cacheupdater.samza;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.events.ChangeEventCodec;
import io.nearline.common.testkit.ChangeEventGenerator;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.samza.operators.KV;
import org.apache.samza.serializers.NoOpSerde;
import org.apache.samza.test.framework.TestRunner;
import org.apache.samza.test.framework.system.descriptors.InMemoryInputDescriptor;
import org.apache.samza.test.framework.system.descriptors.InMemoryOutputDescriptor;
import org.apache.samza.test.framework.system.descriptors.InMemorySystemDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The task's freshness histogram, watermark and per-table counts as a Samza container publishes them
 * to Prometheus: Samza's JMX reporter, and the JMX exporter's agent on this JVM (failsafe's argLine)
 * with the shipped rules, {@code jobs/monitoring/samza-jmx-exporter.yaml}. The labels the job wrote
 * into the names come out as labels, in the names {@code jobs/monitoring/nearline-rules.yaml} reads.
 * The job runs on the in-memory TestRunner for the few seconds its input lasts; the endpoint is read
 * meanwhile, and the last reading that holds a watermark is checked.
 */
class SamzaPrometheusIT {

    private static final AtomicReference<String> LAST = new AtomicReference<>();

    @Timeout(180)
    @Test
    void theContainerPublishesFreshnessAndWatermarkThroughTheExporter(@TempDir Path dir) throws Exception {
        Map<Integer, List<KV<byte[], byte[]>>> partitions = new HashMap<>();
        long committed = System.currentTimeMillis();
        for (int p = 0; p < 2; p++) {
            List<KV<byte[], byte[]>> messages = new ArrayList<>();
            for (long scn = 1; scn <= 100_000; scn++) {
                ChangeEvent e = ChangeEventGenerator.event("member:" + (scn % 500) + ":" + p, p, scn, false);
                e.setTable("inventory.items");
                e.setCommitTimeMillis(committed);
                messages.add(KV.of(e.getKey().toString().getBytes(StandardCharsets.UTF_8), ChangeEventCodec.encode(e)));
            }
            messages.add(3, KV.of(null, "not a change".getBytes(StandardCharsets.UTF_8)));
            partitions.put(p, messages);
        }
        Map<String, String> settings = Map.of(
                "kafka.bootstrap-servers", "127.0.0.1:9", // the in-memory system stands in for Kafka
                "cdc.topic", "cdc",
                "cdc.dead-letter-topic", "deadletters",
                "cache.store", "rocksdb",
                "rocksdb.path", dir.resolve("cache").toString(),
                "metrics.reporters", "jmx",
                "metrics.reporter.jmx.class", "org.apache.samza.metrics.reporter.JmxReporterFactory");

        AtomicReference<String> lastWithWatermark = new AtomicReference<>();
        Thread reader = new Thread(() -> readWhileRunning(lastWithWatermark), "prometheus-reader");
        reader.setDaemon(true);
        reader.start();
        try {
            InMemorySystemDescriptor kafka = new InMemorySystemDescriptor(CacheUpdaterApp.SYSTEM);
            InMemoryInputDescriptor<KV<byte[], byte[]>> cdc = kafka.getInputDescriptor("cdc", new NoOpSerde<>());
            InMemoryOutputDescriptor<byte[]> deadLetters = kafka.getOutputDescriptor("deadletters", new NoOpSerde<>());
            TestRunner.of(new CacheUpdaterApp())
                    .addConfig(settings)
                    .addInputStream(cdc, partitions)
                    .addOutputStream(deadLetters, 1)
                    .run(Duration.ofSeconds(120));
        } finally {
            reader.interrupt();
            reader.join(5_000);
        }

        String body = lastWithWatermark.get();
        assertTrue(
                body != null,
                () -> "no reading of the exporter held a consistent-through above 0 while the job ran; the last: "
                        + (LAST.get() == null
                                ? "none"
                                : String.join(
                                        "\n",
                                        LAST.get()
                                                .lines()
                                                .filter(l -> l.contains("nearline") || l.contains("Task"))
                                                .limit(40)
                                                .toList())));
        for (String series : List.of(
                "nearline_samza_freshness_le{",
                "nearline_samza_freshness_events{",
                "nearline_samza_freshness_sum_ms{",
                "nearline_samza_consistent_through{",
                "nearline_samza_table_writes{")) {
            assertTrue(
                    body.lines().anyMatch(l -> l.startsWith(series) && l.contains("table=\"inventory.items\"")),
                    series + " of table inventory.items missing");
        }
        assertTrue(
                body.lines()
                        .anyMatch(l -> l.startsWith("nearline_samza_freshness_le{")
                                && l.contains("le=\"+Inf\"")
                                && l.contains("partition=\"1\"")),
                "the +Inf bucket of partition 1");
        assertTrue(
                body.lines()
                        .anyMatch(l -> l.startsWith("nearline_samza_consistent_through{")
                                && Math.abs(value(l) - committed) < 1),
                "the watermark is the changes' commit time");
        assertTrue(
                body.lines().anyMatch(l -> l.startsWith("nearline_samza_events_received{")),
                "the unlabelled counters under their own names");
    }

    private static double value(String line) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    private static void readWhileRunning(AtomicReference<String> lastWithWatermark) {
        HttpClient http = HttpClient.newHttpClient();
        URI metrics = URI.create("http://127.0.0.1:" + System.getProperty("samza.prometheus.port") + "/metrics");
        while (!Thread.currentThread().isInterrupted()) {
            try {
                String body = http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString())
                        .body();
                LAST.set(body);
                if (body.lines().anyMatch(l -> l.startsWith("nearline_samza_consistent_through{") && value(l) > 0)) {
                    lastWithWatermark.set(body);
                }
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            } catch (Exception notYet) {
                // the agent answers once the JVM is up; nothing to read between readings
            }
        }
    }
}
