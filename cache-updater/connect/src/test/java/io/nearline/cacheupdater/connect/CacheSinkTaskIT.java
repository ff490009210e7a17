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
package io.nearline.cacheupdater.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.storeredis.testkit.RedisStoreSetup;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.config.Config;
import io.nearline.common.events.ChangeEventCodec;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import io.nearline.common.testkit.ChangeEventGenerator;
import io.nearline.common.testkit.RedisServerProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink's task beside its code, against a real redis-server, driven as a worker drives it (put,
 * preCommit, stop) with the worker's side kept in {@link Worker}: what it commits covers only writes
 * that are durable, a record it cannot take is reported with its reason, and while the store is frozen
 * input is paused and nothing more is committed. Connect's own runtime runs it in the connect-runner's
 * conformance suite.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class CacheSinkTaskIT {

    private static final String TOPIC = "nearline.cdc";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);

    @TempDir
    Path dir;

    private RedisServerProcess redis;
    private Metrics registry;
    private Worker worker;
    private CacheSinkTask task;

    /** What the worker gives the task: its assignment, its errant-record reporter, its plugin metrics. */
    private final class Worker implements SinkTaskContext {
        final List<SinkRecord> reported = new ArrayList<>();
        final List<Throwable> reasons = new ArrayList<>();
        final Set<TopicPartition> paused = new java.util.HashSet<>();
        final PluginMetrics metrics = new PluginMetricsImpl(registry, Map.of("connector", "it", "task", "0"));
        boolean withReporter = true;

        @Override
        public Map<String, String> configs() {
            return Map.of();
        }

        @Override
        public void offset(Map<TopicPartition, Long> offsets) {}

        @Override
        public void offset(TopicPartition tp, long offset) {}

        @Override
        public void timeout(long timeoutMs) {}

        @Override
        public Set<TopicPartition> assignment() {
            return Set.of(P0);
        }

        @Override
        public synchronized void pause(TopicPartition... partitions) {
            paused.addAll(List.of(partitions));
        }

        @Override
        public synchronized void resume(TopicPartition... partitions) {
            List.of(partitions).forEach(paused::remove);
        }

        @Override
        public void requestCommit() {}

        @Override
        public ErrantRecordReporter errantRecordReporter() {
            return withReporter ? this::report : null;
        }

        private synchronized Future<Void> report(SinkRecord record, Throwable why) {
            reported.add(record);
            reasons.add(why);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public PluginMetrics pluginMetrics() {
            return metrics;
        }
    }

    @BeforeEach
    void start() throws Exception {
        RedisServerProcess.skipReason().ifPresent(why -> {
            System.out.println("CacheSinkTaskIT " + why);
            Assumptions.abort(why);
        });
        redis = RedisServerProcess.start(dir.resolve("redis"), RedisStoreSetup.STORE);
        registry = new Metrics();
        worker = new Worker();
    }

    @AfterEach
    void stop() throws Exception {
        if (task != null) {
            task.stop();
        }
        if (redis != null) {
            redis.close();
        }
        if (registry != null) {
            registry.close();
        }
    }

    private Map<String, String> props() {
        Map<String, String> props = new HashMap<>(redis.settings());
        props.put("name", "cache-sink-it");
        props.put("connector.class", CacheSinkConnector.class.getName());
        props.put("topics", TOPIC);
        props.put("cache.ttl", "1d");
        props.put("write.batch.max-keys", "10");
        props.put("write.batch.max-delay", "20ms");
        props.putAll(SinkSettings.REQUIRED_CONNECT);
        props.put(SinkSettings.DLQ_TOPIC, TOPIC + ".dlq");
        return props;
    }

    private CacheSinkTask started() {
        task = new CacheSinkTask();
        task.initialize(worker);
        task.start(props());
        return task;
    }

    private static SinkRecord record(long offset, Object value) {
        return new SinkRecord(TOPIC, 0, null, ("k" + offset).getBytes(StandardCharsets.UTF_8), null, value, offset);
    }

    private static SinkRecord change(long offset, ChangeEvent event) {
        return record(offset, ChangeEventCodec.encode(event));
    }

    private Object storedVersion(ChangeEvent event) {
        try (CacheStore store = CacheStores.open(Config.of(redis.settings()))) {
            return store.get(ChangeEvents.cacheKey(event))
                    .map(s -> CacheRecordCodec.decodeVersion(s.value()))
                    .orElse(null);
        }
    }

    private Map<TopicPartition, OffsetAndMetadata> commitAfter(long lastOffset) {
        return task.preCommit(Map.of(P0, new OffsetAndMetadata(lastOffset + 1)));
    }

    @Test
    void whatItCommitsIsWrittenInOrderAndWhatItCannotTakeIsReportedWithItsReason() {
        started();
        ChangeEvent newer = ChangeEventGenerator.event("a", 0, 20, false);
        ChangeEvent older = ChangeEventGenerator.event("a", 0, 10, false);
        ChangeEvent other = ChangeEventGenerator.event("b", 0, 5, false);
        task.put(List.of(
                change(0, newer),
                change(1, older),
                record(2, "not avro".getBytes(StandardCharsets.UTF_8)),
                record(3, "a string, not bytes"),
                change(4, other)));

        assertEquals(Map.of(P0, new OffsetAndMetadata(5)), commitAfter(4), "every record taken, one way or another");
        assertEquals(ChangeEvents.cacheRecord(newer).version(), storedVersion(newer), "the replayed older lost");
        assertEquals(ChangeEvents.cacheRecord(other).version(), storedVersion(other));

        assertEquals(
                List.of(2L, 3L),
                worker.reported.stream().map(SinkRecord::kafkaOffset).toList());
        assertTrue(
                worker.reasons.get(0).getMessage().contains("UNDECODABLE"),
                worker.reasons.get(0).getMessage());
        assertTrue(
                worker.reasons.get(1).getMessage().contains(SinkSettings.BYTE_ARRAY_CONVERTER),
                "the converter to use is named: " + worker.reasons.get(1).getMessage());
    }

    @Test
    void whileTheStoreIsFrozenInputPausesAndNothingUnwrittenIsCommitted() throws Exception {
        started();
        task.put(List.of(change(0, ChangeEventGenerator.event("first", 0, 1, false))));
        assertEquals(Map.of(P0, new OffsetAndMetadata(1)), commitAfter(0));

        redis.pause();
        List<SinkRecord> burst = new ArrayList<>();
        for (long offset = 1; offset <= 60; offset++) {
            burst.add(change(offset, ChangeEventGenerator.event("k" + offset, 0, offset, false)));
        }
        task.put(burst);
        assertTrue(worker.paused.contains(P0), "60 records waiting, past 4 batches of 10: input paused");
        Map<TopicPartition, OffsetAndMetadata> frozen = commitAfter(60);
        assertTrue(
                frozen.getOrDefault(P0, new OffsetAndMetadata(1)).offset() <= 1,
                "nothing written while frozen is committed: " + frozen);

        redis.resume();
        assertEquals(Map.of(P0, new OffsetAndMetadata(61)), commitAfter(60), "all written once it thaws");
        task.put(List.of());
        assertFalse(worker.paused.contains(P0), "input resumed once the writes caught up");
        assertEquals(
                ChangeEvents.cacheRecord(ChangeEventGenerator.event("k60", 0, 60, false))
                        .version(),
                storedVersion(ChangeEventGenerator.event("k60", 0, 60, false)));
    }

    @Test
    void aWorkerWithoutAnErrantRecordReporterIsRefusedAtStartNamingTheVersionNeeded() {
        worker.withReporter = false;
        task = new CacheSinkTask();
        task.initialize(worker);
        ConnectException e = assertThrows(ConnectException.class, () -> task.start(props()));
        assertTrue(e.getMessage().contains("Kafka Connect 4.1"), e.getMessage());
        task = null;
    }
}
