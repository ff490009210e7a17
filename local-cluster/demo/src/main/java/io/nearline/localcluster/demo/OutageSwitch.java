package io.nearline.localcluster.demo;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStoreProvider;
import io.nearline.common.store.CacheStores;
import io.nearline.common.store.SwitchableStore;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code cache.store=switchable}: the embedded RocksDB store behind a switch the demo flips with
 * {@link #down} to take the store down for a while.
 */
public final class OutageSwitch implements CacheStoreProvider {

    private static volatile long downUntil;
    private static final LongAdder REFUSED = new LongAdder();

    /** Takes every switchable store in this JVM down for {@code duration}. */
    public static void down(Duration duration) {
        downUntil = System.currentTimeMillis() + duration.toMillis();
    }

    public static long refusedCalls() {
        return REFUSED.sum();
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
        return new SwitchableStore(CacheStores.open(config.withOverrides(Map.of("cache.store", "rocksdb"))),
                () -> System.currentTimeMillis() < downUntil, REFUSED);
    }
}
