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
