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
package io.nearline.cacheupdater.storeredis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import io.nearline.common.testkit.ConfigDocsCheck;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedisStoreSettingsTest {

    private static String refusal(Map<String, String> values) {
        return assertThrows(ConfigException.class, () -> RedisStoreSettings.from(Config.of(values)))
                .getMessage();
    }

    @Test
    void defaultsReachALocalServer() {
        RedisStoreSettings s = RedisStoreSettings.from(Config.of(Map.of()));
        assertEquals("redis://127.0.0.1:6379", s.servers().get(0).toString());
        assertFalse(s.cluster());
        assertFalse(s.tls());
    }

    @Test
    void aPasswordInTheAddressIsRefusedSoItIsNeverPrinted() {
        assertTrue(refusal(Map.of("redis.servers", "redis://u:secret@127.0.0.1:6379"))
                .contains("redis.servers"));
    }

    @Test
    void severalServersAreACluster() {
        String message = refusal(Map.of("redis.servers", "redis://a:1,redis://b:2"));
        assertTrue(message.contains("redis.cluster=true"), message);
        RedisStoreSettings s = RedisStoreSettings.from(
                Config.of(Map.of("redis.servers", "redis://a:1, redis://b:2", "redis.cluster", "true")));
        assertEquals(2, s.servers().size());
    }

    @Test
    void tlsIsAllOrNothingAndTheCertificateNeedsIt() {
        assertTrue(refusal(Map.of("redis.servers", "rediss://a:1,redis://b:2", "redis.cluster", "true"))
                .contains("mixes"));
        assertTrue(refusal(Map.of("redis.tls.trust-certificate", "/etc/hosts")).contains("rediss://"));
        assertTrue(RedisStoreSettings.from(Config.of(Map.of("redis.servers", "rediss://a:1")))
                .tls());
    }

    @Test
    void aPasswordIsOnlyTakenByReference() {
        assertThrows(
                ConfigException.class, () -> RedisStoreSettings.from(Config.of(Map.of("redis.password", "hunter2"))));
    }

    @Test
    void docsListEveryKey() {
        ConfigDocsCheck.assertInSync("store-redis", RedisStoreSettings.DEF);
    }

    @Test
    void thePasswordIsNeverPrinted() {
        RedisStoreSettings s = RedisStoreSettings.from(Config.of(Map.of("redis.password", "env:REDIS_PW")));
        assertFalse(s.toString().contains("REDIS_PW"));
    }
}
