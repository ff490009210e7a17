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
