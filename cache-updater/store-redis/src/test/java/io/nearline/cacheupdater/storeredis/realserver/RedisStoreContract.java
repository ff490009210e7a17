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
package io.nearline.cacheupdater.storeredis.realserver;

import io.nearline.cacheupdater.core.contract.ServerStoreContract;
import io.nearline.cacheupdater.storeredis.RedisCacheStore;
import io.nearline.cacheupdater.storeredis.RedisStoreSettings;
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
