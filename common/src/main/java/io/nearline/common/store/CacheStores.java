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
import io.nearline.common.config.ConfigException;
import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.ValueType;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** Opens the store that {@code cache.store} names, from the providers on the classpath. */
public final class CacheStores {

    public static final ConfigKey<String> STORE = ConfigKey.of(
            "cache.store",
            ValueType.STRING,
            "rocksdb",
            "Which cache store the job writes to: rocksdb (embedded, one process), couchbase or redis.");

    private CacheStores() {}

    public static Map<String, CacheStoreProvider> providers() {
        Map<String, CacheStoreProvider> out = new TreeMap<>();
        ServiceLoader.load(CacheStoreProvider.class, CacheStores.class.getClassLoader())
                .forEach(p -> out.put(p.type(), p));
        return out;
    }

    public static CacheStoreProvider provider(Config config) {
        String type = config.get(STORE);
        CacheStoreProvider provider = providers().get(type);
        if (provider == null) {
            throw new ConfigException(
                    "'cache.store' = '" + type + "' is not a store on this classpath: expected one of "
                            + providers().keySet());
        }
        return provider;
    }

    public static CacheStore open(Config config) {
        CacheStoreProvider provider = provider(config);
        config.validate(provider.settings());
        return provider.open(config);
    }
}
