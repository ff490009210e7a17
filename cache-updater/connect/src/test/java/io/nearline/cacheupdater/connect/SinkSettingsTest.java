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
package io.nearline.cacheupdater.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

class SinkSettingsTest {

    /** A connector config that can start: Redis, raw bytes, bad records to the dead-letter topic. */
    private static Map<String, String> good() {
        Map<String, String> props = new HashMap<>();
        props.put("name", "cache-sink");
        props.put("connector.class", CacheSinkConnector.class.getName());
        props.put("topics", "nearline.cdc");
        props.put("cache.store", "redis");
        props.put("redis.servers", "redis://127.0.0.1:6379");
        props.put("cache.ttl", "7d");
        props.putAll(SinkSettings.REQUIRED_CONNECT);
        props.put(SinkSettings.DLQ_TOPIC, "nearline.cdc.dlq");
        return props;
    }

    @Test
    void aGoodConfigHasNoProblems() {
        assertEquals(Map.of(), SinkSettings.problems(good()));
    }

    @Test
    void connectSeesTheJobsKeysWithTheirDefaultsAndDescriptions() {
        var def = SinkSettings.connectDef();
        assertEquals("7d", def.configKeys().get("cache.ttl").defaultValue);
        assertEquals("100ms", def.configKeys().get("write.batch.max-delay").defaultValue);
        assertTrue(def.configKeys().containsKey("couchbase.bucket"), "the Couchbase store's settings");
        assertTrue(def.configKeys().containsKey("redis.servers"), "the Redis store's settings");
        assertFalse(def.configKeys().get("cdc.format").documentation.isBlank());
        for (String owned : SinkSettings.CONNECT_OWNS.keySet()) {
            assertFalse(def.configKeys().containsKey(owned), owned + " is Connect's here");
        }
        assertEquals(null, def.configKeys().get("cache.store").defaultValue, "the store is always chosen");
    }

    @Test
    void theEmbeddedStoreIsRefusedWithTheReason() {
        Map<String, String> props = good();
        props.put("cache.store", "rocksdb");
        List<String> problems = SinkSettings.problems(props).get("cache.store");
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("Use couchbase or redis"), problems.get(0));
    }

    @Test
    void aMisspeltKeyIsNamedWithTheOneMeant() {
        Map<String, String> props = good();
        props.put("cache.tll", "1d");
        assertEquals(
                List.of("unknown key 'cache.tll'. Did you mean 'cache.ttl'?"),
                SinkSettings.problems(props).get("cache.tll"));
    }

    @Test
    void aBadValueIsNamedAsTheJobsNameIt() {
        Map<String, String> props = good();
        props.put("write.batch.max-keys", "lots");
        String problem =
                SinkSettings.problems(props).get("write.batch.max-keys").get(0);
        assertTrue(problem.startsWith("'write.batch.max-keys' = 'lots' is not valid"), problem);
    }

    @Test
    void whatConnectOwnsIsRefusedWithTheConnectSettingToUse() {
        Map<String, String> props = good();
        props.put("cdc.topic", "changes");
        props.put("kafka.security.protocol", "sasl-ssl");
        Map<String, List<String>> problems = SinkSettings.problems(props);
        assertTrue(problems.get("cdc.topic").get(0).contains("'topics'"), problems.toString());
        assertTrue(problems.get("kafka.security.protocol").get(0).contains("consumer.*"), problems.toString());
    }

    @Test
    void theConnectSettingsItNeedsAreRequiredAsStated() {
        Map<String, String> props = good();
        props.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        props.remove("errors.tolerance");
        props.remove(SinkSettings.DLQ_TOPIC);
        Map<String, List<String>> problems = SinkSettings.problems(props);
        assertEquals(
                List.of("value.converter", "errors.tolerance", SinkSettings.DLQ_TOPIC), List.copyOf(problems.keySet()));
        assertTrue(problems.get("value.converter").get(0).contains("ByteArrayConverter"), problems.toString());
    }

    @Test
    void connectsValidationCarriesTheProblemsOnTheirKeys() {
        Map<String, String> props = good();
        props.put("cache.tll", "1d");
        Map<String, List<String>> errors = new HashMap<>();
        for (ConfigValue v : new CacheSinkConnector().validate(props).configValues()) {
            if (!v.errorMessages().isEmpty()) {
                errors.put(v.name(), v.errorMessages());
            }
        }
        assertEquals(Map.of("cache.tll", List.of("unknown key 'cache.tll'. Did you mean 'cache.ttl'?")), errors);
    }
}
