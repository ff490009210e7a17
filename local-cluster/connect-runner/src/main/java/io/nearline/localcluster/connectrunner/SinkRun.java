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
package io.nearline.localcluster.connectrunner;

import com.fasterxml.jackson.databind.JsonNode;
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.common.config.Config;
import io.nearline.common.config.Namespaces;
import io.nearline.common.testkit.LocalProcesses;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.jobs.kit.processes.Home;
import io.nearline.jobs.kit.processes.PluginZip;
import io.nearline.localcluster.cdcreplay.CdcReplay;
import io.nearline.localcluster.kit.options.LocalRunOptions;
import io.nearline.localcluster.kit.processes.ForkedConnect;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * One run of the cache sink connector on a replay's broker: the shipped plugin unpacked onto a Kafka
 * Connect worker's plugin path, the connector created from the job's settings, and the run watched
 * until every event is written (the connector's own counters, read over the worker's JMX) and every
 * position of the CDC topic committed by the connector's consumer group — which the connector
 * commits only for durable writes. Then the worker is stopped and its dead letters are put, in the
 * jobs' form, on the dead-letter topic the replay reads.
 */
final class SinkRun {

    static final String CONNECTOR_CLASS = "io.nearline.cacheupdater.connect.CacheSinkConnector";
    private static final String BYTES = "org.apache.kafka.connect.converters.ByteArrayConverter";

    /** Job settings Connect owns in a connector (its input, group, dead letters and Kafka's addresses). */
    private static final Set<String> OWNED_BY_CONNECT = Set.of(
            CacheUpdaterSettings.CDC_TOPIC.name(),
            CacheUpdaterSettings.DEAD_LETTER_TOPIC.name(),
            CacheUpdaterSettings.CONSUMER_GROUP.name());

    /** A run that makes no progress for this long has failed: the worker's log says why. */
    private static final Duration STALLED = Duration.ofSeconds(120);

    private final Config config;
    private final CacheUpdaterSettings settings;
    private final LocalRunOptions run;
    private final Path work;
    private final KafkaClient kafka;

    SinkRun(Config config, CacheUpdaterSettings settings, LocalRunOptions run, Path work) {
        this.config = config;
        this.settings = settings;
        this.run = run;
        this.work = work;
        this.kafka = KafkaClient.plaintext(settings.bootstrapServers());
    }

    /** The connector's name: the jobs' consumer group, so its dead letters name the same job. */
    String connectorName() {
        return settings.consumerGroup();
    }

    /** Connect's dead-letter topic for this run, apart from the one the replay reads (which holds the jobs' form). */
    String connectDeadLetterTopic() {
        return settings.deadLetterTopic() + ".connect";
    }

    /** The connector's config: Connect's settings for the sink, then the job's own Nearline settings. */
    Map<String, String> connectorConfig() {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("connector.class", CONNECTOR_CLASS);
        c.put("tasks.max", String.valueOf(run.parallelism));
        c.put("topics", settings.cdcTopic());
        c.put("key.converter", BYTES);
        c.put("value.converter", BYTES);
        c.put("errors.tolerance", "all");
        c.put("errors.deadletterqueue.topic.name", connectDeadLetterTopic());
        c.put("errors.deadletterqueue.topic.replication.factor", "1");
        c.put("errors.deadletterqueue.context.headers.enable", "true");
        config.asMap().forEach((key, value) -> {
            String ns = Namespaces.of(key);
            if (Namespaces.isNearline(key)
                    && !OWNED_BY_CONNECT.contains(key)
                    && !ns.equals("kafka")
                    && !ns.equals("rocksdb")
                    && !ns.equals("bootstrap")) {
                c.put(key, value);
            }
        });
        return c;
    }

    /** Runs the connector until {@code events} are written (any number when {@link CdcReplay#UNCOUNTED}) and committed. */
    void run(long events) throws Exception {
        Path plugins = PluginZip.unpack(ForkedConnect.sinkPluginZip(Home.dir()), work.resolve("connect-plugins"));
        KafkaTopics.createTopics(kafka, Map.of(connectDeadLetterTopic(), 1));
        Path dir = work.resolve("connect");
        int jmx = LocalProcesses.freePort();
        try (WorkerCounts counts = new WorkerCounts(ConnectEngine.METRICS, connectorName())) {
            ForkedConnect worker = start(dir, plugins, jmx, counts);
            try {
                worker.deploy(connectorName(), connectorConfig(), Duration.ofSeconds(120));
                System.out.printf(
                        "  connector %s running on a Kafka Connect worker (%s)%n", connectorName(), worker.rest());
                boolean killed = run.killAt == null;
                long lastDone = -1;
                String lastCommitted = "";
                long lastProgress = System.nanoTime();
                while (true) {
                    long done = CdcReplay.eventsDone(ConnectEngine.METRICS);
                    if (!killed && done >= run.killAt * events) {
                        worker.kill();
                        System.out.printf(
                                "%n  >> killed the Kafka Connect worker (-9) after %,d of %,d events%n", done, events);
                        jmx = LocalProcesses.freePort();
                        worker = start(dir, plugins, jmx, counts);
                        killed = true;
                    }
                    Positions positions = positions();
                    if (killed && ended(events, done, positions, lastDone, lastProgress)) {
                        break;
                    }
                    failIfFailed(worker);
                    if (done != lastDone || !positions.committed().equals(lastCommitted)) {
                        lastDone = done;
                        lastCommitted = positions.committed();
                        lastProgress = System.nanoTime();
                    } else if (System.nanoTime() - lastProgress > STALLED.toNanos()) {
                        throw new IllegalStateException("the connector made no progress for " + STALLED.toSeconds()
                                + " s (" + done + " of " + events + " events done; committed " + positions
                                + "); see " + dir.resolve("connect.log"));
                    }
                    Thread.sleep(200);
                }
            } catch (Exception e) {
                // the work dir may not outlive the run (a test's): its log's warnings go with the failure
                System.err.println(
                        "the Kafka Connect worker's last warnings and errors:\n" + ForkedConnect.problems(dir));
                throw e;
            } finally {
                worker.close();
            }
        }
        ConnectDeadLetters.copy(kafka, connectDeadLetterTopic(), settings.deadLetterTopic(), connectorName());
    }

    private ForkedConnect start(Path dir, Path plugins, int jmx, WorkerCounts counts) throws IOException {
        ForkedConnect worker = startWorker(dir, settings.bootstrapServers(), plugins, jmx);
        counts.watch(jmx);
        return worker;
    }

    /**
     * A worker in {@code dir} on {@code kafka} with the sink plugin unpacked in {@code plugins} beside
     * Debezium's, its JMX on loopback port {@code jmx} (for {@link WorkerCounts}).
     */
    static ForkedConnect startWorker(Path dir, String kafka, Path plugins, int jmx) throws IOException {
        ForkedConnect worker = ForkedConnect.start(
                dir,
                kafka,
                List.of(plugins),
                List.of(
                        "-Dcom.sun.management.jmxremote.port=" + jmx,
                        "-Dcom.sun.management.jmxremote.rmi.port=" + jmx,
                        "-Dcom.sun.management.jmxremote.host=127.0.0.1",
                        "-Djava.rmi.server.hostname=127.0.0.1",
                        "-Dcom.sun.management.jmxremote.authenticate=false",
                        "-Dcom.sun.management.jmxremote.ssl=false"));
        return worker;
    }

    /**
     * Whether the run is over: the end is what the connector commits, which it does for durable writes
     * only; its counters show the progress, and a shortfall of theirs is said, not waited on.
     */
    private static boolean ended(long events, long done, Positions positions, long lastDone, long lastProgress) {
        if (!positions.atTheEnd()) {
            return false;
        }
        if (events == CdcReplay.UNCOUNTED || done >= events) {
            return true;
        }
        if (positions.total() < events || !countsSettled(done, lastDone, lastProgress)) {
            return false;
        }
        System.out.printf(
                "%n  the connector committed every position, its counters show %,d of %,d events written (a task's "
                        + "counts lost in a restart)%n",
                done, events);
        return true;
    }

    /** Where the connector's group has committed each partition of the CDC topic, and the topic's ends. */
    private record Positions(Map<Integer, Long> ends, Map<Integer, Long> committedByPartition) {

        /** Records on the topic: a live run's grow while they are sent. */
        long total() {
            return ends.values().stream().mapToLong(Long::longValue).sum();
        }

        boolean atTheEnd() {
            return ends.entrySet().stream()
                    .allMatch(e ->
                            e.getValue() == 0 || committedByPartition.getOrDefault(e.getKey(), -1L) >= e.getValue());
        }

        String committed() {
            return new java.util.TreeMap<>(committedByPartition).toString();
        }

        @Override
        public String toString() {
            return committed() + " of ends " + new java.util.TreeMap<>(ends);
        }
    }

    private Positions positions() throws InterruptedException {
        Map<Integer, Long> ends = KafkaTopics.endOffsets(kafka, settings.cdcTopic());
        Map<Integer, Long> committed = new java.util.HashMap<>();
        try (Admin admin = Admin.create(kafka.properties())) {
            admin.listConsumerGroupOffsets("connect-" + connectorName())
                    .partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS)
                    .forEach((tp, at) -> {
                        if (tp.topic().equals(settings.cdcTopic()) && at != null) {
                            committed.put(tp.partition(), at.offset());
                        }
                    });
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            // the group is not there yet, or the broker is restarting: nothing committed seen
        }
        return new Positions(ends, committed);
    }

    /**
     * Whether the counters have stood still for a while with every position committed (of a topic that
     * holds every event): the writes are durable, and what the counters lack is counts a task started
     * again lost, not events.
     */
    private static boolean countsSettled(long done, long lastDone, long lastProgress) {
        return done == lastDone
                && System.nanoTime() - lastProgress > Duration.ofSeconds(10).toNanos();
    }

    /** A connector or task the worker reports FAILED ends the run with the first line of its error. */
    private void failIfFailed(ForkedConnect worker) {
        JsonNode status;
        try {
            status = worker.get("/connectors/" + connectorName() + "/status");
        } catch (IOException e) {
            return; // restarting, or between rebalances
        }
        List<JsonNode> parts = new java.util.ArrayList<>(List.of(status.path("connector")));
        status.path("tasks").forEach(parts::add);
        for (JsonNode part : parts) {
            if (part.path("state").asText().equals("FAILED")) {
                throw new IllegalStateException("connector " + connectorName() + " failed: "
                        + part.path("trace").asText().lines().findFirst().orElse("(no trace)"));
            }
        }
    }
}
