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

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreException;
import io.nearline.common.store.StoreUnavailableException;
import io.nearline.common.testkit.ConfigDocsCheck;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What only the Couchbase store does: connection failures, error mapping and health, on CouchbaseMock. */
class CouchbaseCacheStoreIT {

    @Test
    void wrongCredentialsFailAtConnectWithTheKeysToCheck() throws Exception {
        try (CouchbaseMockServer server = CouchbaseMockServer.start()) {
            CouchbaseStoreSettings bad = server.settings(
                    Map.of("couchbase.password", SecretFiles.reference("wrong"), "couchbase.connect-timeout", "3s"));
            StoreException e = assertThrows(StoreException.class, () -> CouchbaseCacheStore.connect(bad));
            assertTrue(
                    e.getMessage().contains("couchbase.connection-string, username, password and bucket"),
                    e.getMessage());
        }
    }

    /** A server that goes away: operations become retriable failures and health turns down. */
    @Test
    void anOutageIsTransientAndTurnsHealthDown() throws Exception {
        CouchbaseMockServer server = CouchbaseMockServer.start();
        CouchbaseStoreSettings fast =
                server.settings(Map.of("couchbase.kv-timeout", "300ms", "couchbase.health.min-samples", "3"));
        try (CouchbaseCacheStore store = CouchbaseCacheStore.connect(fast)) {
            CacheKey k = CacheKey.of("outage");
            store.upsert(k, "x".getBytes(StandardCharsets.UTF_8), Duration.ofMinutes(5));
            assertTrue(store.health().healthy());
            server.close();
            for (int i = 0; i < 4; i++) {
                assertThrows(StoreUnavailableException.class, () -> store.get(k));
            }
            CacheStore.Health health = store.health();
            assertFalse(health.healthy());
            assertTrue(health.detail().contains("operations failed"), health.detail());
        }
    }

    @Test
    void closedStoreRefusesWork() throws Exception {
        try (CouchbaseMockServer server = CouchbaseMockServer.start()) {
            CouchbaseCacheStore store = CouchbaseCacheStore.connect(server.settings());
            store.close();
            store.close();
            assertThrows(StoreException.class, () -> store.get(CacheKey.of("a")));
            await().until(() -> !store.health().healthy());
        }
    }

    @Test
    void settingsComeFromConfigAndFailByName() {
        CouchbaseStoreSettings s = CouchbaseStoreSettings.from(Config.of(
                Map.of("couchbase.username", "cache", "couchbase.bucket", "profiles", "couchbase.kv-timeout", "1s")));
        assertTrue(s.kvTimeout().equals(Duration.ofSeconds(1)) && s.collection().equals("_default"));
        assertFalse(s.toString().contains("password"));
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> CouchbaseStoreSettings.from(
                        Config.of(Map.of("couchbase.username", "cache", "couchbase.health.max-error-rate", "2"))));
        assertTrue(e.getMessage().contains("'couchbase.bucket' is required"), e.getMessage());
        assertTrue(e.getMessage().contains("'couchbase.health.max-error-rate' = '2'"), e.getMessage());
    }

    @Test
    void docsListEveryKey() {
        ConfigDocsCheck.assertInSync("store-couchbase", CouchbaseStoreSettings.DEF);
    }
}
