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
