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
import io.nearline.common.testkit.ConfigDocsCheck;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WriterSettingsTest {

    @Test
    void defaultsAreFinite() {
        WriterSettings s = WriterSettings.defaults();
        assertEquals(Duration.ofDays(7), s.ttl());
        assertTrue(s.maxAttempts() > 1);
    }

    @Test
    void aZeroTtlIsRefusedByName() {
        ConfigException e =
                assertThrows(ConfigException.class, () -> WriterSettings.from(Config.of(Map.of("cache.ttl", "0s"))));
        assertTrue(
                e.getMessage().contains("'cache.ttl' = '0s'") && e.getMessage().contains("must be > 0"),
                e.getMessage());
    }

    @Test
    void backoffBoundsMustBeOrdered() {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> WriterSettings.from(
                        Config.of(Map.of("write.backoff.initial", "1s", "write.backoff.max", "10ms"))));
        assertTrue(e.getMessage().contains("'write.backoff.max' must be >= 'write.backoff.initial'"), e.getMessage());
    }

    @Test
    void docsListEveryKey() {
        ConfigDocsCheck.assertInSync("writer", WriterSettings.DEF);
    }
}
