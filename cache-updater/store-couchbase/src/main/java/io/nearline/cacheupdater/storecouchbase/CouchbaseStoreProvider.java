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
package io.nearline.cacheupdater.storecouchbase;

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
