package io.nearline.store.rocksdb;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStoreProvider;
import io.nearline.common.store.SharedStores;

/** {@code cache.store=rocksdb}: one database per path per JVM, shared by the tasks in it. */
public final class RocksDbStoreProvider implements CacheStoreProvider {

    @Override
    public String type() {
        return "rocksdb";
    }

    @Override
    public ConfigDef settings() {
        return RocksDbStoreSettings.DEF;
    }

    @Override
    public CacheStore open(Config config) {
        RocksDbStoreSettings settings = RocksDbStoreSettings.from(config);
        return SharedStores.acquire(
                "rocksdb:" + settings.path().toAbsolutePath().normalize(), () -> RocksDbCacheStore.open(settings));
    }
}
