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
package io.nearline.cacheupdater.storerocksdb;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreException;
import io.nearline.common.testkit.ConfigDocsCheck;
import io.nearline.common.testkit.ManualClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDB;

/** What only the RocksDB store does: purge on disk, settings, and which JNI build it runs on. */
class RocksDbCacheStoreTest {

    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void expiredRecordsAreInvisibleAtOnceAndPurgedFromDisk() {
        ManualClock clock = new ManualClock();
        try (RocksDbCacheStore store =
                RocksDbCacheStore.open(RocksDbStoreSettings.at(dir).withPurgeInterval(Duration.ZERO), clock)) {
            store.insertIfAbsent(CacheKey.of("short"), bytes("a"), Duration.ofSeconds(10));
            store.insertIfAbsent(CacheKey.of("long"), bytes("b"), Duration.ofDays(1));
            clock.advance(Duration.ofSeconds(10));
            assertTrue(store.get(CacheKey.of("short")).isEmpty());
            assertEquals(2, store.storedRecordCount());
            assertEquals(1, store.purgeExpired());
            assertEquals(1, store.storedRecordCount());
            assertTrue(store.get(CacheKey.of("long")).isPresent());
        }
    }

    @Test
    void backgroundPurgeRunsByItself() {
        try (RocksDbCacheStore store =
                RocksDbCacheStore.open(RocksDbStoreSettings.at(dir).withPurgeInterval(Duration.ofMillis(50)))) {
            for (int i = 0; i < 20; i++) {
                store.insertIfAbsent(CacheKey.of("k" + i), bytes("v"), Duration.ofMillis(100));
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> store.storedRecordCount() == 0);
        }
    }

    @Test
    void overwritesOfAKeyReuseItsMemtableEntry() {
        try (RocksDbCacheStore store = RocksDbCacheStore.open(RocksDbStoreSettings.at(dir))) {
            CacheKey k = CacheKey.of("k");
            store.upsert(k, bytes("v-0000"), Duration.ofHours(1));
            long entries = store.activeMemtableEntries();
            for (int i = 1; i <= 100; i++) {
                store.upsert(k, bytes("v-" + String.format("%04d", i)), Duration.ofHours(1));
            }
            assertEquals(entries, store.activeMemtableEntries(), "100 same-size overwrites added entries");
            assertEquals("v-0100", new String(store.get(k).orElseThrow().value(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void overwritesOfEverySizeReadBackExactlyAndSurviveAReopen() {
        CacheKey k = CacheKey.of("k");
        String[] values = {"a-much-longer-value", "short", "", "mid-sized", "mid-sized", "the longest value of them all"
        };
        try (RocksDbCacheStore store = RocksDbCacheStore.open(RocksDbStoreSettings.at(dir))) {
            for (String v : values) {
                store.upsert(k, bytes(v), Duration.ofHours(1));
                assertEquals(v, new String(store.get(k).orElseThrow().value(), StandardCharsets.UTF_8));
            }
            store.upsert(k, bytes("tiny"), Duration.ofHours(1)); // shrinks in place: the old bytes must not show
        }
        try (RocksDbCacheStore store = RocksDbCacheStore.open(RocksDbStoreSettings.at(dir))) {
            assertEquals("tiny", new String(store.get(k).orElseThrow().value(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void casTokensStayUniqueAcrossReopen() {
        CacheKey k = CacheKey.of("k");
        long before;
        try (RocksDbCacheStore store = RocksDbCacheStore.open(RocksDbStoreSettings.at(dir))) {
            before = store.insertIfAbsent(k, bytes("v1"), Duration.ofHours(1)).cas();
        }
        try (RocksDbCacheStore store = RocksDbCacheStore.open(RocksDbStoreSettings.at(dir))) {
            long now = store.get(k).orElseThrow().cas();
            long after = store.replaceIfCasMatches(k, bytes("v2"), now, Duration.ofHours(1))
                    .cas();
            assertTrue(after != before && after > before, before + " then " + after);
        }
    }

    @Test
    void aDatabaseInUseCannotBeOpenedTwice() {
        try (RocksDbCacheStore store = RocksDbCacheStore.open(RocksDbStoreSettings.at(dir))) {
            StoreException e =
                    assertThrows(StoreException.class, () -> RocksDbCacheStore.open(RocksDbStoreSettings.at(dir)));
            assertTrue(e.getMessage().contains("another process"), e.getMessage());
            assertTrue(store.health().healthy());
        }
    }

    @Test
    void closeIsIdempotent() {
        RocksDbCacheStore store = RocksDbCacheStore.open(RocksDbStoreSettings.at(dir));
        store.close();
        store.close();
        CacheStore.Health h = store.health();
        assertTrue(!h.healthy() && h.detail().contains("closed"), h.detail());
    }

    @Test
    void settingsComeFromConfigAndFailByName() {
        RocksDbStoreSettings s = RocksDbStoreSettings.from(
                Config.of(Map.of("rocksdb.path", dir.toString(), "rocksdb.sync-writes", "true")));
        assertTrue(s.syncWrites());
        ConfigException e = assertThrows(ConfigException.class, () -> RocksDbStoreSettings.from(Config.empty()));
        assertTrue(e.getMessage().contains("'rocksdb.path' is required"), e.getMessage());
    }

    @Test
    void docsListEveryKey() {
        ConfigDocsCheck.assertInSync("store-rocksdb", RocksDbStoreSettings.DEF);
    }

    /** Each surefire execution puts another JNI build first; prove that the one we meant is in use. */
    @Test
    void runsOnTheIntendedRocksDbJniBuild() {
        String expected = System.getProperty("nearline.expectedRocksJni");
        String actual = RocksDB.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toString();
        assertTrue(
                expected != null && actual.contains(expected),
                "expected " + expected + ", RocksDB loaded from " + actual);
    }
}
