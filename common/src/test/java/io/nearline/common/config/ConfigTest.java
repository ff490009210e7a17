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
package io.nearline.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigTest {

    enum Kind {
        ROCKSDB,
        COUCHBASE
    }

    static final ConfigKey<Duration> TTL = ConfigKey.of("cache.ttl", ValueType.DURATION, Duration.ofDays(7), "TTL")
            .checked(Check.positiveDuration());
    static final ConfigKey<Duration> PERIOD =
            ConfigKey.of("cache.period", ValueType.DURATION, Duration.ofDays(1), "period");
    static final ConfigKey<Integer> ATTEMPTS =
            ConfigKey.of("write.max-attempts", ValueType.INT, 5, "attempts").checked(Check.atLeast(1));
    static final ConfigKey<Kind> KIND =
            ConfigKey.of("store.type", ValueType.enumOf(Kind.class), Kind.ROCKSDB, "which store");
    static final ConfigKey<String> PATH = ConfigKey.required("store.path", ValueType.STRING, "where data lives");

    static final ConfigDef DEF = ConfigDef.of("test", TTL, PERIOD, ATTEMPTS, KIND, PATH)
            .withInvariant(
                    c -> c.get(PERIOD).compareTo(c.get(TTL)) < 0,
                    "'cache.period' must be shorter than 'cache.ttl': lower the period or raise the TTL.");

    @Test
    void typedValuesAndDefaults() {
        Config c = Config.of(Map.of("cache.ttl", "36h", "store.type", "couchbase", "store.path", "/tmp/x"))
                .validate(DEF);
        assertEquals(Duration.ofHours(36), c.get(TTL));
        assertEquals(5, c.get(ATTEMPTS));
        assertEquals(Kind.COUCHBASE, c.get(KIND));
    }

    @Test
    void durationsAcceptUnitsAndIso() {
        assertEquals(Duration.ofMillis(250), ValueType.DURATION.parse("250ms"));
        assertEquals(Duration.ofDays(7), ValueType.DURATION.parse("7d"));
        assertEquals(Duration.ofSeconds(30), ValueType.DURATION.parse("PT30S"));
        assertEquals("7d", ValueType.DURATION.format(Duration.ofDays(7)));
        assertEquals("1500ms", ValueType.DURATION.format(Duration.ofMillis(1500)));
    }

    @Test
    void badValueNamesKeyValueAndExpectation() {
        ConfigException e = assertThrows(
                ConfigException.class, () -> Config.of(Map.of("cache.ttl", "7 fortnights", "store.path", "p"))
                        .validate(DEF));
        assertEquals(1, e.problems().size());
        String msg = e.getMessage();
        assertTrue(
                msg.contains("'cache.ttl'") && msg.contains("7 fortnights") && msg.contains("a duration such as"), msg);
    }

    @Test
    void checksAreEnforced() {
        ConfigException e = assertThrows(
                ConfigException.class, () -> Config.of(Map.of("write.max-attempts", "0", "store.path", "p"))
                        .validate(DEF));
        assertTrue(
                e.getMessage().contains("'write.max-attempts' = '0'")
                        && e.getMessage().contains("must be >= 1"),
                e.getMessage());
    }

    @Test
    void allProblemsAreReportedAtOnce() {
        ConfigException e =
                assertThrows(ConfigException.class, () -> Config.of(Map.of("cache.ttl", "x", "store.type", "memcached"))
                        .validate(DEF));
        assertEquals(3, e.problems().size(), e.getMessage()); // ttl, type, missing path
        assertTrue(e.getMessage().contains("'store.path' is required"), e.getMessage());
        assertTrue(e.getMessage().contains("one of: rocksdb, couchbase"), e.getMessage());
    }

    @Test
    void typoInAKnownNamespaceIsCaughtWithASuggestion() {
        ConfigException e =
                assertThrows(ConfigException.class, () -> Config.of(Map.of("cache.tll", "1d", "store.path", "p"))
                        .validateComplete(DEF));
        assertTrue(e.getMessage().contains("unknown key 'cache.tll'. Did you mean 'cache.ttl'?"), e.getMessage());
    }

    @Test
    void aComponentValidatingAloneIgnoresItsNeighboursKeys() {
        ConfigDef ttlOnly = ConfigDef.of("ttl", TTL);
        Config.of(Map.of("cache.store", "rocksdb")).validate(ttlOnly);
        assertThrows(ConfigException.class, () -> Config.of(Map.of("cache.store", "rocksdb"))
                .validateComplete(ttlOnly));
    }

    @Test
    void keysOutsideOurNamespacesPassThrough() {
        Config.of(Map.of("taskmanager.numberOfTaskSlots", "2", "store.path", "p"))
                .validateComplete(DEF);
    }

    @Test
    void invariantFailsNamingBothKeys() {
        ConfigException e = assertThrows(ConfigException.class, () -> Config.of(
                        Map.of("cache.ttl", "1d", "cache.period", "2d", "store.path", "p"))
                .validate(DEF));
        assertTrue(e.getMessage().contains("'cache.period' must be shorter than 'cache.ttl'"), e.getMessage());
    }

    @Test
    void loadsPropertiesAndNestedYamlWithOverrides(@TempDir Path dir) throws Exception {
        Path props = dir.resolve("job.properties");
        Files.writeString(props, "cache.ttl=2d\nstore.path=/a\n");
        Path yaml = dir.resolve("job.yaml");
        Files.writeString(yaml, "cache:\n  ttl: 3d\nstore:\n  path: /b\n  type: couchbase\n");

        assertEquals(Duration.ofDays(2), Config.load(props).validate(DEF).get(TTL));
        Config fromYaml =
                Config.load(yaml).withOverrides(Map.of("store.path", "/c")).validate(DEF);
        assertEquals(Duration.ofDays(3), fromYaml.get(TTL));
        assertEquals(Kind.COUCHBASE, fromYaml.get(KIND));
        assertEquals("/c", fromYaml.get(PATH));
    }

    @Test
    void missingFileIsAClearError(@TempDir Path dir) {
        ConfigException e = assertThrows(ConfigException.class, () -> Config.load(dir.resolve("nope.yaml")));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    }

    @Test
    void aDefaultThatViolatesItsCheckIsAProgrammingError() {
        assertThrows(IllegalArgumentException.class, () -> ConfigKey.of("x.y", ValueType.INT, 0, "d")
                .checked(Check.atLeast(1)));
    }

    @Test
    void docsSectionIsGeneratedAndChecked(@TempDir Path dir) throws Exception {
        Path doc = dir.resolve("configuration.md");
        Files.writeString(doc, "# Configuration\n");
        assertEquals(ConfigDocs.markdown(DEF), ConfigDocs.checkSection(doc, "test", DEF, false));
        assertEquals(null, ConfigDocs.checkSection(doc, "test", DEF, true));
        assertEquals(null, ConfigDocs.checkSection(doc, "test", DEF, false));
        String text = Files.readString(doc);
        assertTrue(text.contains("| `cache.ttl` | duration | `7d` | TTL (must be > 0) |"), text);
        assertTrue(text.contains("| `store.path` | string | *required* |"), text);
    }
}
