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
import io.nearline.common.events.DebeziumKeys;
import io.nearline.common.testkit.ConfigDocsCheck;
import java.util.List;
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
    void tablesAreListedWithTheirOwnKeys() {
        Config c = debezium(Map.of(
                "cdc.debezium.tables", "public.customers, public.orders,public.links",
                "cdc.debezium.table.public.orders.key-fields", "order_id",
                "cdc.debezium.table.public.links.key-prefix", "link:"));
        c.validateComplete(CacheUpdaterSettings.DEF);
        DebeziumKeys keys = CacheUpdaterSettings.debeziumKeys(c);
        assertEquals(
                List.of("public.customers", "public.orders", "public.links"),
                List.copyOf(keys.tables().keySet()));
        assertEquals(List.of("order_id"), keys.keyFieldsOf("public.orders"));
        assertEquals(List.of(), keys.keyFieldsOf("public.customers"), "the record key's own fields");
        assertEquals("public.customers:", keys.prefixOf("public.customers"));
        assertEquals("link:", keys.prefixOf("public.links"));

        Config ttl = c.withOverrides(Map.of("cdc.debezium.table.public.links.ttl", "2h"));
        ttl.validateComplete(CacheUpdaterSettings.DEF);
        assertEquals(Map.of("link:", java.time.Duration.ofHours(2)), CacheUpdaterSettings.ttlByKeyPrefix(ttl));
        assertEquals(Map.of(), CacheUpdaterSettings.ttlByKeyPrefix(Config.empty()), "an Avro job");
    }

    /** Two tables whose keys could meet are refused before the job starts; tables with their own key spaces are not. */
    @Test
    void tablesThatWouldShareKeysAreRefused() {
        String refused = "would share cache keys";
        assertRefused(
                Map.of(
                        "cdc.debezium.tables", "public.a,public.b",
                        "cdc.debezium.table.public.a.key-prefix", "x:",
                        "cdc.debezium.table.public.b.key-prefix", "x:"),
                refused);
        assertRefused(
                Map.of(
                        "cdc.debezium.tables", "public.a,public.b",
                        "cdc.debezium.table.public.a.key-prefix", "a:",
                        "cdc.debezium.table.public.b.key-prefix", "a:b:"),
                refused);
        assertRefused(
                Map.of("cdc.debezium.tables", "public.a,public.b", "cdc.debezium.table.public.b.key-prefix", ""),
                refused);
        Config own = debezium(Map.of(
                "cdc.debezium.tables", "public.a,public.ab",
                "cdc.debezium.table.public.a.key-prefix", "a:"));
        own.validateComplete(CacheUpdaterSettings.DEF); // "a:" and "public.ab:" never meet
    }

    /** Published consistent-through entries must have a key space no table's rows can reach. */
    @Test
    void publishingConsistentThroughWhereRowKeysCouldMeetItIsRefused() {
        String refused = "'write.consistent-through.key-prefix' and a table's keys could meet";
        assertRefused(Map.of("write.consistent-through.publish-every", "1s"), refused); // one table: bare values
        assertRefused(
                Map.of(
                        "write.consistent-through.publish-every", "1s",
                        "cdc.debezium.tables", "public.a,public.b",
                        "cdc.debezium.table.public.a.key-prefix", "nearline."),
                refused);
        assertRefused(
                Map.of("write.consistent-through.publish-every", "1s", "write.freshness-metrics", "false"),
                "needs the watermark");
        debezium(Map.of("write.consistent-through.publish-every", "1s", "cdc.debezium.tables", "public.a,public.b"))
                .validateComplete(CacheUpdaterSettings.DEF);
        debezium(Map.of("write.consistent-through.publish-every", "1s", "cdc.debezium.key-prefix", "row:"))
                .validateComplete(CacheUpdaterSettings.DEF);
        debezium(Map.of()).validateComplete(CacheUpdaterSettings.DEF); // off by default: nothing to check
    }

    /** Each bad table setting fails before the job starts, naming the key. */
    @Test
    void badTableSettingsAreRefusedByName() {
        assertRefused(
                Map.of("cdc.debezium.tables", "public.orders", "cdc.debezium.table.public.orders.key-fields", " , "),
                "'cdc.debezium.table.public.orders.key-fields' = ' , ' is not valid: it must name at least one field");
        assertRefused(
                Map.of("cdc.debezium.tables", "public.orders", "cdc.debezium.table.public.ordrs.key-fields", "id"),
                "names a table that 'cdc.debezium.tables' does not list");
        assertRefused(
                Map.of("cdc.debezium.tables", "public.orders", "cdc.debezium.table.public.orders.key-feilds", "id"),
                "unknown key 'cdc.debezium.table.public.orders.key-feilds'");
        assertRefused(
                Map.of("cdc.debezium.tables", "public.orders", "cdc.debezium.table.public.orders.ttl", "0s"),
                "'cdc.debezium.table.public.orders.ttl' = '0s' is not valid");
    }

    /** A delete without a version can lose rows under redelivery, a bootstrap or read-repair: refused, naming the fix. */
    @Test
    void nullValueDeletesAreRefusedNamingTheRewriteRecipe() {
        ConfigException refused =
                assertThrows(ConfigException.class, () -> debezium(Map.of("cdc.debezium.null-value", "delete"))
                        .validateComplete(CacheUpdaterSettings.DEF));
        assertEquals(1, refused.problems().size(), refused.getMessage());
        assertTrue(refused.getMessage().contains("delete.tombstone.handling.mode=rewrite"), refused.getMessage());
    }

    private static void assertRefused(Map<String, String> settings, String expected) {
        ConfigException refused = assertThrows(
                ConfigException.class, () -> debezium(settings).validateComplete(CacheUpdaterSettings.DEF));
        assertTrue(refused.getMessage().contains(expected), refused.getMessage());
    }

    private static Config debezium(Map<String, String> settings) {
        return Config.of(Map.of("kafka.bootstrap-servers", "b:1", "cdc.format", "debezium-json"))
                .withOverrides(settings);
    }

    @Test
    void docsListEveryKey() {
        ConfigDocsCheck.assertInSync("cache-updater", CacheUpdaterSettings.DEF);
    }
}
