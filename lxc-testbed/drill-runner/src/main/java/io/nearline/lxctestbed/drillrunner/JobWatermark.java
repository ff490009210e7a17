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
package io.nearline.lxctestbed.drillrunner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.FlinkRest;
import io.nearline.jobs.deploy.FlinkYarn;
import io.nearline.jobs.deploy.SamzaMetricsStream;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The cache updater's own {@code consistent-through} while a drill runs: the oldest over its input
 * partitions, as the job reports it (Flink's REST API, Samza's metrics stream). A drill plots how far
 * the cache's trusted point falls behind the clock during a fault, and how fast it comes back. Read
 * each second on a thread of its own, so a job that does not answer (its application master
 * restarting) holds up nothing else.
 */
final class JobWatermark implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GAUGE = "consistent-through";
    /** Samza sends a snapshot every 5 s: a reading older than two of them is no reading. */
    private static final Duration STALE = Duration.ofSeconds(11);

    private final ClusterFile cluster;
    private final String engine;
    private final String jobName;
    /** Samza: the metrics stream read from where the run began, on. */
    private KafkaConsumer<byte[], byte[]> snapshots;
    /** Samza: each partition's newest reading, by its metric's name (one table and partition each). */
    private final Map<String, Long> samzaLatest = new HashMap<>();

    private final ScheduledExecutorService reader = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "drill-job-watermark");
        t.setDaemon(true);
        return t;
    });
    /** The last reading and when it was taken (epoch ms); null until one was. */
    private volatile long[] last;

    JobWatermark(ClusterFile cluster, String engine, String jobName) {
        this.cluster = cluster;
        this.engine = engine;
        this.jobName = jobName;
    }

    /** Starts reading the job each second. */
    JobWatermark start() {
        reader.scheduleWithFixedDelay(
                () -> oldest().ifPresent(v -> last = new long[] {v, System.currentTimeMillis()}),
                0,
                1,
                TimeUnit.SECONDS);
        return this;
    }

    /**
     * How far the job's trusted point is behind the clock now, in milliseconds: now minus the newest
     * reading; empty where there has been none for {@code STALE}, so a job that stopped answering shows as
     * a gap, not as a point that stands still.
     */
    OptionalLong lagMillis() {
        long[] l = last;
        long now = System.currentTimeMillis();
        return l == null || now - l[1] > STALE.toMillis()
                ? OptionalLong.empty()
                : OptionalLong.of(Math.max(0, now - l[0]));
    }

    /**
     * The oldest partition's consistent-through, epoch milliseconds; empty where the job cannot be read
     * now (its application master restarting, the broker down) or has settled no change yet.
     */
    private OptionalLong oldest() {
        try {
            return oldestOf(engine.equals("flink") ? flinkReadings() : samzaReadings());
        } catch (RuntimeException e) { // a fault in place may keep the job from answering: a gap in the plot
            return OptionalLong.empty();
        }
    }

    /** The oldest of a job's partition readings; a partition that has settled nothing (0) has no point yet. */
    static OptionalLong oldestOf(List<Long> readings) {
        return readings.stream().mapToLong(Long::longValue).filter(v -> v > 0).min();
    }

    /** Each partition's gauge (one subtask reads a partition, so the minimum over subtasks is its own), from the REST API. */
    private List<Long> flinkReadings() {
        Optional<FlinkYarn.Running> job = FlinkYarn.running(cluster, jobName);
        if (job.isEmpty()) {
            return List.of();
        }
        return FlinkRest.metricAggregates(
                        job.get().rest(),
                        job.get().jobId(),
                        id -> id.endsWith(GAUGE) || id.endsWith(GAUGE.replace('-', '_')),
                        "min")
                .stream()
                .map(Double::longValue)
                .toList();
    }

    /** The snapshots sent since the last reading (every 5 s per container), folded into each partition's newest. */
    private List<Long> samzaReadings() {
        if (snapshots == null) {
            snapshots = fromTheEnd();
        }
        for (ConsumerRecord<byte[], byte[]> r : snapshots.poll(Duration.ofMillis(200))) {
            try {
                JsonNode snapshot = JSON.readTree(r.value());
                if (snapshot.path("header").path("job-name").asText().equals(jobName)) {
                    snapshot.path("metrics").path("nearline").properties().forEach(m -> {
                        if (m.getKey().startsWith(GAUGE + "|")) {
                            samzaLatest.put(m.getKey(), m.getValue().asLong(0));
                        }
                    });
                }
            } catch (IOException e) {
                // not a snapshot: nothing to read
            }
        }
        return List.copyOf(samzaLatest.values());
    }

    private KafkaConsumer<byte[], byte[]> fromTheEnd() {
        Map<String, Object> props = cluster.kafka().properties();
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions =
                consumer.partitionsFor(SamzaMetricsStream.TOPIC, Duration.ofSeconds(10)).stream()
                        .map(p -> new TopicPartition(p.topic(), p.partition()))
                        .toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions); // this run's job sends its snapshots from now on
        return consumer;
    }

    @Override
    public void close() {
        reader.shutdownNow();
        try {
            reader.awaitTermination(5, TimeUnit.SECONDS); // the consumer is the reader's: closed once it stopped
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (snapshots != null) {
            snapshots.close();
        }
    }
}
