package io.nearline.store.rocksdb;

import io.nearline.cacheupdater.testkit.CacheStoreContract;
import io.nearline.common.store.CacheStore;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

class RocksDbCacheStoreContractTest extends CacheStoreContract {

    @TempDir
    Path dir;

    private RocksDbCacheStore store;

    @BeforeEach
    void open() {
        store = RocksDbCacheStore.open(RocksDbStoreSettings.at(dir.resolve("db")));
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Override
    protected CacheStore store() {
        return store;
    }

    @Override
    protected CacheStore reopen() {
        store.close();
        store = RocksDbCacheStore.open(RocksDbStoreSettings.at(dir.resolve("db")));
        return store;
    }

    @Override
    protected CacheStore closedStore() {
        return RocksDbCacheStore.open(RocksDbStoreSettings.at(dir.resolve("other")));
    }

    // RocksDB is fast: race harder than the default.
    @Override
    protected int raceKeys() {
        return 400;
    }

    @Override
    protected int raceThreads() {
        return 8;
    }
}
