package io.nearline.cacheupdater.testkit;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.config.ValueType;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStoreProvider;
import io.nearline.common.store.CacheStores;
import io.nearline.common.store.SwitchableStore;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code cache.store=outage}: a real store (named by {@code test.outage.delegate}) that is down for
 * {@code test.outage.duration} from the moment a job first opens it in this JVM. Lets tests run the
 * real engines through a store outage. {@link #reset} before each test.
 */
public final class OutageStoreProvider implements CacheStoreProvider {

    public static final String DELEGATE = "test.outage.delegate";
    public static final String DURATION = "test.outage.duration";

    private static volatile long outageEndsAt = -1;
    private static final LongAdder REFUSED = new LongAdder();

    /** Forget the previous outage: the next open starts a new one. */
    public static synchronized void reset() {
        outageEndsAt = -1;
        REFUSED.reset();
    }

    /** Calls refused during the outage so far. */
    public static long failedCalls() {
        return REFUSED.sum();
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
                Duration outage = config.raw(DURATION).map(ValueType.DURATION::parse).orElse(Duration.ofSeconds(2));
                outageEndsAt = System.currentTimeMillis() + outage.toMillis();
            }
        }
        return new SwitchableStore(inner, () -> System.currentTimeMillis() < outageEndsAt, REFUSED);
    }
}
