package io.nearline.store.redis;

import io.nearline.cacheupdater.testkit.CacheStoreContract;
import io.nearline.common.config.Config;
import io.nearline.common.store.CacheStore;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/** The store contract on Redis servers that a subclass starts once for all its tests. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(RequiresRedis.class)
abstract class RedisStoreContract extends CacheStoreContract {

    private RedisStoreSettings settings;
    private RedisCacheStore store;

    /** Starts the server(s) and returns the job settings that reach them. */
    protected abstract Map<String, String> startServers() throws Exception;

    protected abstract void stopServers();

    @BeforeAll
    void connect() throws Exception {
        settings = RedisStoreSettings.from(Config.of(startServers()));
        store = RedisCacheStore.connect(settings);
    }

    @AfterAll
    void disconnect() {
        if (store != null) {
            store.close();
        }
        stopServers();
    }

    protected RedisStoreSettings settings() {
        return settings;
    }

    @Override
    protected CacheStore store() {
        return store;
    }

    /** A new client on the same server: the data lives in Redis, not in the client. */
    @Override
    protected CacheStore reopen() {
        store.close();
        store = RedisCacheStore.connect(settings);
        return store;
    }

    @Override
    protected CacheStore closedStore() {
        return RedisCacheStore.connect(settings);
    }
}
