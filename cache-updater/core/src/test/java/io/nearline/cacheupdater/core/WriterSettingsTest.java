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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.cacheupdater.core.testkit.KeyHistory;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.testkit.ConfigDocsCheck;
import io.nearline.common.version.Version;
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

    /** A table's own TTL goes with the keys that start with its part; the longest part a key starts with wins. */
    @Test
    void aKeyTakesTheTtlOfItsTable() {
        WriterSettings s = WriterSettings.defaults()
                .withTtlByKeyPrefix(
                        Map.of("public.orders:", Duration.ofHours(1), "public.orders:vip:", Duration.ofHours(9)));
        assertEquals(Duration.ofHours(1), s.ttlOf(CacheKey.of("public.orders:5")));
        assertEquals(Duration.ofHours(9), s.ttlOf(CacheKey.of("public.orders:vip:5")));
        assertEquals(Duration.ofDays(7), s.ttlOf(CacheKey.of("public.customers:5")), "cache.ttl otherwise");
        assertEquals(Duration.ofHours(1), s.withTtl(Duration.ofDays(2)).ttlOf(CacheKey.of("public.orders:5")));
    }

    /** The ordered write sets each record's expiry by its table's TTL. */
    @Test
    void theOrderedWriteExpiresEachTablesRecordsByItsOwnTtl() {
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(1_000_000);
        java.time.Clock clock = new java.time.Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public java.time.Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public java.time.Instant instant() {
                return java.time.Instant.ofEpochMilli(now.get());
            }
        };
        InMemoryCacheStore store = new InMemoryCacheStore(clock);
        ScnOrderedWriter writer = new ScnOrderedWriter(
                store,
                WriterSettings.defaults().withTtlByKeyPrefix(Map.of("public.orders:", Duration.ofHours(1))),
                new InMemoryMetrics());
        CacheKey order = CacheKey.of("public.orders:5");
        CacheKey customer = CacheKey.of("public.customers:5");
        writer.write(order, KeyHistory.record(order, Version.of(3, 0), false));
        writer.write(customer, KeyHistory.record(customer, Version.of(3, 0), false));
        now.addAndGet(Duration.ofHours(2).toMillis());
        assertFalse(store.contents().containsKey(order), "the orders' TTL of an hour is over");
        assertTrue(store.contents().containsKey(customer), "cache.ttl, seven days, is not");
    }

    @Test
    void docsListEveryKey() {
        ConfigDocsCheck.assertInSync("writer", WriterSettings.DEF);
    }
}
