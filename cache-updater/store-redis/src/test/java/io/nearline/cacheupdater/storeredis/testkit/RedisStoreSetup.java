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
package io.nearline.cacheupdater.storeredis.testkit;

import io.nearline.cacheupdater.storeredis.RedisCacheStore;
import io.nearline.cacheupdater.storeredis.RedisStoreSettings;
import io.nearline.common.config.Config;
import io.nearline.common.testkit.RedisServerProcess;

/** A private redis-server set up for the Redis store: its jobs' ACL rule, its function library loaded by the admin. */
public final class RedisStoreSetup {

    public static final RedisServerProcess.Store STORE = new RedisServerProcess.Store(
            RedisCacheStore.JOB_COMMANDS,
            admin -> RedisCacheStore.loadFunctions(RedisStoreSettings.from(Config.of(admin))));

    private RedisStoreSetup() {}
}
