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
package io.nearline.cacheupdater.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import io.nearline.common.events.DebeziumDecoder;
import io.nearline.common.testkit.ConfigDocsCheck;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CacheUpdaterSettingsTest {

    @Test
    void defaultsNeedOnlyTheBrokers() {
        CacheUpdaterSettings s =
                CacheUpdaterSettings.from(Config.of(Map.of("kafka.bootstrap-servers", "127.0.0.1:9092")));
        assertEquals("nearline.cdc", s.cdcTopic());
        assertEquals(1000, s.batchMaxKeys());
    }

    @Test
    void missingBrokersAndSameTopicsFailByName() {
        ConfigException missing = assertThrows(ConfigException.class, () -> CacheUpdaterSettings.from(Config.empty()));
        assertTrue(missing.getMessage().contains("'kafka.bootstrap-servers' is required"), missing.getMessage());
        ConfigException same = assertThrows(
                ConfigException.class,
                () -> CacheUpdaterSettings.from(Config.of(
                        Map.of("kafka.bootstrap-servers", "b:1", "cdc.topic", "t", "cdc.dead-letter-topic", "t"))));
        assertTrue(
                same.getMessage().contains("'cdc.topic' and 'cdc.dead-letter-topic' must differ"), same.getMessage());
    }

    @Test
    void aRegistryMustExistAndCannotCheckDebeziumJson() {
        ConfigException missing = assertThrows(
                ConfigException.class,
                () -> CacheUpdaterSettings.from(Config.of(
                        Map.of("kafka.bootstrap-servers", "b:1", "schema.registry.dir", "/no/such/registry"))));
        assertTrue(missing.getMessage().contains("schema.registry.dir"), missing.getMessage());
        ConfigException json = assertThrows(
                ConfigException.class,
                () -> CacheUpdaterSettings.from(Config.of(Map.of(
                        "kafka.bootstrap-servers",
                        "b:1",
                        "cdc.format",
                        "debezium-json",
                        "schema.registry.dir",
                        System.getProperty("java.io.tmpdir")))));
        assertTrue(json.getMessage().contains("leave the registry out"), json.getMessage());
        assertTrue(
                CacheUpdaterSettings.from(Config.of(
                                        Map.of("kafka.bootstrap-servers", "b:1", "cdc.format", "debezium-json")))
                                .decoder()
                        instanceof DebeziumDecoder);
    }

    @Test
    void docsListEveryKey() {
        ConfigDocsCheck.assertInSync("cache-updater", CacheUpdaterSettings.DEF);
    }
}
