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
package io.nearline.cacheupdater.storeredis.realserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriteOutcome;
import io.nearline.cacheupdater.core.WriteResult;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.testkit.KeyHistory;
import io.nearline.cacheupdater.storeredis.RedisCacheStore;
import io.nearline.cacheupdater.storeredis.testkit.RedisClusterProcess;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.testkit.RedisServerProcess;
import io.nearline.common.version.Version;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The store contract against a three-node Redis Cluster started here: keys routed by slot, functions on every node. */
class RedisClusterCacheStoreIT extends RedisStoreContract {

    private RedisClusterProcess cluster;

    @Override
    protected Map<String, String> startServers() throws Exception {
        cluster = RedisClusterProcess.start(Files.createTempDirectory("nearline-redis-cluster-it"), 3);
        return cluster.settings();
    }

    @Override
    protected void stopServer() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void orderedWritesReachEveryNodeAndEachNodeHoldsOnlyItsSlots() throws Exception {
        ScnOrderedWriter w = new ScnOrderedWriter(
                store(), WriterSettings.defaults().withTtl(Duration.ofHours(1)), new InMemoryMetrics());
        for (int i = 0; i < 300; i++) {
            CacheKey k = key("spread-" + i);
            assertEquals(
                    WriteOutcome.APPLIED,
                    w.write(k, KeyHistory.record(k, Version.of(i + 1, 1), false))
                            .outcome());
            assertEquals(
                    WriteOutcome.STALE,
                    w.write(k, KeyHistory.record(k, Version.of(i, 1), false)).outcome());
        }
        for (RedisServerProcess node : cluster.nodes()) {
            long keys = Long.parseLong(node.cli("DBSIZE"));
            assertTrue(keys > 0, "node " + node.port() + " holds none of 300 keys: not routed by slot");
            assertTrue(node.cli("FUNCTION", "LIST").contains(RedisCacheStore.LIBRARY), "functions on " + node.port());
        }
    }

    /** A batch's keys fall in many slots: each slot's keys go to their node in a call of their own. */
    @Test
    void aBatchAcrossSlotsReachesEveryKeysNode() throws Exception {
        ScnOrderedWriter w = new ScnOrderedWriter(
                store(), WriterSettings.defaults().withTtl(Duration.ofHours(1)), new InMemoryMetrics());
        List<ScnOrderedWriter.Change> batch = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            CacheKey k = key("batch-" + i);
            batch.add(new ScnOrderedWriter.Change(k, KeyHistory.record(k, Version.of(i + 1, 1), false), false));
        }
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try {
            for (CompletableFuture<WriteResult> r : w.writeAllAsync(batch, timer)) {
                assertEquals(WriteOutcome.APPLIED, r.get(30, TimeUnit.SECONDS).outcome());
            }
        } finally {
            timer.shutdownNow();
        }
        for (ScnOrderedWriter.Change c : batch) {
            assertEquals(
                    c.record().version(),
                    CacheRecordCodec.decodeVersion(
                            store().get(c.key()).orElseThrow().value()),
                    c.key().value());
        }
        int total = 0;
        int nodesHolding = 0;
        for (RedisServerProcess node : cluster.nodes()) {
            long held = node.cli("KEYS", "*batch-*")
                    .lines()
                    .filter(l -> !l.isBlank())
                    .count();
            total += held;
            nodesHolding += held > 0 ? 1 : 0;
        }
        assertEquals(64, total, "each key of the batch on one node");
        assertEquals(3, nodesHolding, "the batch's keys spread over the nodes by slot");
    }
}
