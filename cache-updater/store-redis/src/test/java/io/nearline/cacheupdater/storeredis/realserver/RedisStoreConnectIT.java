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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.storeredis.RedisCacheStore;
import io.nearline.cacheupdater.storeredis.testkit.RedisStoreSetup;
import io.nearline.common.config.Config;
import io.nearline.common.store.CacheStores;
import io.nearline.common.store.StoreException;
import io.nearline.common.testkit.RedisServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A store that cannot work fails at start, with the reason and the setting to look at. */
@ExtendWith(RequiresRedis.class)
class RedisStoreConnectIT {

    @TempDir
    Path dir;

    private static String refusal(Map<String, String> settings) {
        StoreException e = assertThrows(StoreException.class, () -> CacheStores.open(Config.of(settings))
                .close());
        return e.getMessage();
    }

    @Test
    void aWrongPasswordNamesTheCredentials() throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start(dir, RedisStoreSetup.STORE)) {
            Path wrong = Files.writeString(dir.resolve("wrong"), "not-the-password");
            Map<String, String> settings = new HashMap<>(server.settings());
            settings.put("redis.password", "file:" + wrong);
            String message = refusal(settings);
            assertTrue(message.contains("redis.username and redis.password"), message);
        }
    }

    @Test
    void anUnreachableServerNamesTheAddress() throws Exception {
        Map<String, String> settings = new HashMap<>();
        settings.put("cache.store", "redis");
        settings.put("redis.servers", "redis://127.0.0.1:1");
        settings.put("redis.connect-timeout", "2s");
        String message = refusal(settings);
        assertTrue(message.contains("redis://127.0.0.1:1") && message.contains("check redis.servers"), message);
    }

    /** A server without Redis Functions (older than 7.0; here: the command renamed away) is refused at start. */
    @Test
    void aServerWithoutFunctionsIsRefused() throws Exception {
        try (RedisServerProcess server =
                RedisServerProcess.start(dir, RedisStoreSetup.STORE, List.of("rename-command FUNCTION \"\""), false)) {
            String message = refusal(server.settings());
            assertTrue(message.contains("Redis 7.0 or later"), message);
        }
    }

    /** A server without the functions: the job's user may not load them, and says who must. */
    @Test
    void aServerWithoutTheLibraryIsRefusedToTheJobsUserNamingTheAdminsLoad() throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start(dir, RedisStoreSetup.STORE, List.of(), false)) {
            String message = refusal(server.settings());
            assertTrue(
                    message.contains(RedisCacheStore.LIBRARY + " is not loaded")
                            && message.contains("may not load it")
                            && message.contains("docs/redis.md#the-function-library"),
                    message);
            assertEquals("", server.cli("FUNCTION", "LIST"));
            // control: once the admin has loaded it, the same settings open a working store
            server.loadFunctions();
            try (var store = CacheStores.open(Config.of(server.settings()))) {
                assertTrue(store.health().healthy(), store.health().detail());
            }
        }
    }

    @Test
    void theProviderOpensAWorkingStore() throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start(dir, RedisStoreSetup.STORE)) {
            try (var store = CacheStores.open(Config.of(server.settings()))) {
                assertTrue(store.health().healthy(), store.health().detail());
                assertTrue(store.orderedWrite().isPresent(), "the ordered write runs on the server");
            }
        }
    }
}
