package io.nearline.store.redis;

import io.nearline.cacheupdater.testkit.ServerStoreContract;
import io.nearline.common.config.Config;
import io.nearline.common.store.CacheStore;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtendWith;

/** The store contract on Redis servers that a subclass starts once for all its tests. */
@ExtendWith(RequiresRedis.class)
abstract class RedisStoreContract extends ServerStoreContract<RedisStoreSettings> {

    /** Starts the server(s) and returns the job settings that reach them. */
    protected abstract Map<String, String> startServers() throws Exception;

    @Override
    protected RedisStoreSettings startServer() throws Exception {
        return RedisStoreSettings.from(Config.of(startServers()));
    }

    @Override
    protected CacheStore connect(RedisStoreSettings settings) {
        return RedisCacheStore.connect(settings);
    }

    /** Redis keeps expiry in milliseconds. */
    @Override
    protected Duration shortTtl() {
        return Duration.ofMillis(500);
    }
}
