package io.nearline.cacheupdater.testkit;

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
 * {@code cache.store=outage}: a real store (named by {@code test.outage.delegate}) that is down for
 * {@code test.outage.duration} from the moment a job first opens it in this JVM — every call fails
 * as unavailable, as a Couchbase cluster in trouble would. Lets tests run the real engines through a
 * store outage. {@link #reset} before each test.
 */
public final class OutageStoreProvider implements CacheStoreProvider {

    public static final String DELEGATE = "test.outage.delegate";
    public static final String DURATION = "test.outage.duration";

    private static long outageEndsAt = -1;
    private static long failedCalls;

    /** Forget the previous outage: the next open starts a new one. */
    public static synchronized void reset() {
        outageEndsAt = -1;
        failedCalls = 0;
    }

    /** Calls refused during the outage so far. */
    public static synchronized long failedCalls() {
        return failedCalls;
    }

    @Override
    public String type() {
        return "outage";
    }

    @Override
    public ConfigDef settings() {
        return ConfigDef.of("outage test store");
    }

    @Override
    public CacheStore open(Config config) {
        String delegate = config.raw(DELEGATE).orElse("rocksdb");
        CacheStore inner = CacheStores.open(config.withOverrides(Map.of("cache.store", delegate)));
        synchronized (OutageStoreProvider.class) {
            if (outageEndsAt < 0) {
                long millis = config.raw(DURATION).map(d -> io.nearline.common.config.ValueType.DURATION.parse(d))
                        .orElse(Duration.ofSeconds(2)).toMillis();
                outageEndsAt = System.currentTimeMillis() + millis;
            }
        }
        return new Down(inner);
    }

    private static synchronized void check(String op) {
        if (System.currentTimeMillis() < outageEndsAt) {
            failedCalls++;
            throw new StoreUnavailableException("injected store outage during " + op);
        }
    }

    private record Down(CacheStore inner) implements CacheStore {
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
            return System.currentTimeMillis() < outageEndsAt ? Health.down("injected outage") : inner.health();
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
