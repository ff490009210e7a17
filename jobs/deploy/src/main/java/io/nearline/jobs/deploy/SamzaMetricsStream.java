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
package io.nearline.jobs.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Samza's metrics stream on a local cluster: every job deployed here also sends its metrics snapshots
 * (Samza's {@code MetricsSnapshotReporter}, JSON) to one topic, which {@code jobs list} reads for the
 * counters a Flink job shows on its REST API.
 */
public final class SamzaMetricsStream {

    public static final String TOPIC = "nearline-samza-metrics";
    private static final ObjectMapper JSON = new ObjectMapper();

    private SamzaMetricsStream() {}

    /** The Samza settings that add the snapshot reporter to a job's reporters. */
    static Map<String, String> reporterSettings(String reporters) {
        Map<String, String> s = new HashMap<>();
        s.put("metrics.reporters", reporters == null || reporters.isBlank() ? "snapshot" : reporters + ",snapshot");
        s.put("metrics.reporter.snapshot.class", "org.apache.samza.metrics.reporter.MetricsSnapshotReporterFactory");
        s.put("metrics.reporter.snapshot.stream", "kafka." + TOPIC);
        s.put("metrics.reporter.snapshot.interval", "5");
        s.put("serializers.registry.metrics.class", "org.apache.samza.serializers.MetricsSnapshotSerdeFactory");
        s.put("systems.kafka.streams." + TOPIC + ".samza.msg.serde", "metrics");
        return s;
    }

    /**
     * A Nearline counter of a job, summed over its sources (tasks, containers) from each source's latest
     * snapshot; -1 when the job has sent none yet.
     */
    public static long count(KafkaClient kafka, String jobName, String counter) {
        Map<String, JsonNode> latest = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : KafkaTopics.readAll(kafka, TOPIC)) {
            try {
                JsonNode snapshot = JSON.readTree(r.value());
                JsonNode header = snapshot.path("header");
                if (header.path("job-name").asText().equals(jobName)) {
                    latest.put(
                            header.path("container-name").asText() + "/"
                                    + header.path("source").asText(),
                            snapshot);
                }
            } catch (IOException e) {
                // not a snapshot: nothing to count
            }
        }
        if (latest.isEmpty()) {
            return -1;
        }
        long sum = 0;
        for (JsonNode snapshot : latest.values()) {
            sum += snapshot.path("metrics").path("nearline").path(counter).asLong(0);
        }
        return sum;
    }
}
