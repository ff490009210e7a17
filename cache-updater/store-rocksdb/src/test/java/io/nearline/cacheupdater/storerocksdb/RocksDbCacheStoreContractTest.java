/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.nearline.cacheupdater.storerocksdb;

import io.nearline.cacheupdater.core.contract.CacheStoreContract;
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
