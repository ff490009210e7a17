package io.nearline.store.couchbase;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStoreProvider;
import io.nearline.common.store.SharedStores;

/** {@code cache.store=couchbase}: one cluster connection per bucket and collection per JVM. */
public final class CouchbaseStoreProvider implements CacheStoreProvider {

    @Override
    public String type() {
        return "couchbase";
    }

    @Override
    public ConfigDef settings() {
        return CouchbaseStoreSettings.DEF;
    }

    @Override
    public CacheStore open(Config config) {
        CouchbaseStoreSettings settings = CouchbaseStoreSettings.from(config);
        return SharedStores.acquire("couchbase:" + settings, () -> CouchbaseCacheStore.connect(settings));
    }
}
