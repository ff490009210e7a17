package io.nearline.store.redis;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStoreProvider;
import io.nearline.common.store.SharedStores;

/** {@code cache.store=redis}: one connection per server (or cluster) and user per JVM, shared by its tasks. */
public final class RedisStoreProvider implements CacheStoreProvider {

    @Override
    public String type() {
        return "redis";
    }

    @Override
    public ConfigDef settings() {
        return RedisStoreSettings.DEF;
    }

    @Override
    public CacheStore open(Config config) {
        RedisStoreSettings settings = RedisStoreSettings.from(config);
        return SharedStores.acquire("redis:" + settings, () -> RedisCacheStore.connect(settings));
    }
}
