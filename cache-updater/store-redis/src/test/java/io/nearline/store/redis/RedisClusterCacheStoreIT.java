package io.nearline.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriteOutcome;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.testkit.KeyHistory;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.version.Version;
import io.nearline.store.redis.testkit.RedisClusterProcess;
import io.nearline.store.redis.testkit.RedisServerProcess;
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
