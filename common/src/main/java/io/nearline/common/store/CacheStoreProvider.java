package io.nearline.common.store;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;

/**
 * How a store module plugs in: registered in {@code META-INF/services/io.nearline.common.store.CacheStoreProvider},
 * found by {@link CacheStores#open} through the {@code cache.store} setting.
 */
public interface CacheStoreProvider {

    /** The value of {@code cache.store} that selects this store, e.g. {@code rocksdb}. */
    String type();

    /** The settings this store reads (validated before {@link #open}). */
    ConfigDef settings();

    /**
     * A store for {@code config}. Stores that allow one owner per process (RocksDB) or are expensive to
     * connect (Couchbase) should share one instance per JVM through {@link SharedStores}.
     */
    CacheStore open(Config config);
}
