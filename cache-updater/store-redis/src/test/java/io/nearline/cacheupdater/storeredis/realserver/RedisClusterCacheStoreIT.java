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
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.testkit.KeyHistory;
import io.nearline.cacheupdater.storeredis.RedisCacheStore;
import io.nearline.cacheupdater.storeredis.testkit.RedisClusterProcess;
import io.nearline.cacheupdater.storeredis.testkit.RedisServerProcess;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.version.Version;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
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
}
