package io.nearline.localcluster.demo;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStoreProvider;
import io.nearline.common.store.CacheStores;
import io.nearline.common.store.StoreUnavailableException;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * {@code cache.store=switchable}: the embedded RocksDB store behind a switch the demo flips to take
 * the store down for a while — every call fails as unavailable, as a cache cluster in trouble would.
 */
public final class OutageSwitch implements CacheStoreProvider {

    private static volatile long downUntil;
    private static long refused;

    /** Takes every switchable store in this JVM down for {@code duration}. */
    public static void down(Duration duration) {
        downUntil = System.currentTimeMillis() + duration.toMillis();
    }

    public static synchronized long refusedCalls() {
        return refused;
    }

    @Override
    public String type() {
        return "switchable";
    }

    @Override
    public ConfigDef settings() {
        return ConfigDef.of("switchable store");
    }

    @Override
    public CacheStore open(Config config) {
        return new Switched(CacheStores.open(config.withOverrides(Map.of("cache.store", "rocksdb"))));
    }

    private static void check(String op) {
        if (System.currentTimeMillis() < downUntil) {
            synchronized (OutageSwitch.class) {
                refused++;
            }
            throw new StoreUnavailableException("store outage (injected by the demo) during " + op);
        }
    }

    private record Switched(CacheStore inner) implements CacheStore {
        @Override
        public Optional<Stored> get(CacheKey key) {
            check("get");
            return inner.get(key);
        }

        @Override
        public WriteResult insertIfAbsent(CacheKey key, byte[] value, Duration expiry) {
            check("insert");
            return inner.insertIfAbsent(key, value, expiry);
        }

        @Override
        public WriteResult replaceIfCasMatches(CacheKey key, byte[] value, long expectedCas, Duration expiry) {
            check("replace");
            return inner.replaceIfCasMatches(key, value, expectedCas, expiry);
        }

        @Override
        public WriteResult upsert(CacheKey key, byte[] value, Duration expiry) {
            check("upsert");
            return inner.upsert(key, value, expiry);
        }

        @Override
        public Health health() {
            return System.currentTimeMillis() < downUntil ? Health.down("injected outage") : inner.health();
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
