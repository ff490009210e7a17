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
package io.nearline.localcluster.kit.stores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriteOutcome;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreOpener;
import io.nearline.common.testkit.ChangeEventGenerator;
import io.nearline.localcluster.kit.baselines.BlindWrites;
import io.nearline.localcluster.kit.baselines.BlindWritesTest;
import io.nearline.localcluster.kit.faults.OutageStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tools' stores: the outage switch where the settings ask for it, and the tools' keys checked. */
class LocalStoresTest {

    private static final ChangeEvent NEWER = ChangeEventGenerator.event("k1", 0, 20, false);

    @TempDir
    Path dir;

    @AfterEach
    void switchBackOn() {
        OutageStore.reset();
    }

    /** The embedded store in a directory of its own, with {@code settings} ("key=value"). */
    static Config config(Path dir, String... settings) {
        Map<String, String> values = new HashMap<>();
        values.put("cache.store", "rocksdb");
        values.put("rocksdb.path", dir.resolve("cache-" + System.nanoTime()).toString());
        for (String s : settings) {
            values.put(s.substring(0, s.indexOf('=')), s.substring(s.indexOf('=') + 1));
        }
        return Config.of(values);
    }

    private Config config(String... settings) {
        return config(dir, settings);
    }

    @Test
    void theOutageSwitchTakesTheStoreDownWhenAskedFor() {
        CacheKey key = ChangeEvents.cacheKey(NEWER);
        try (CacheStore store = LocalStores.open(config("outage.enabled=true", "write.max-attempts=1"))) {
            OutageStore.down(Duration.ofMinutes(1));
            ScnOrderedWriter writer =
                    new ScnOrderedWriter(store, WriterSettings.from(config("write.max-attempts=1")), Metrics.NONE);
            assertEquals(
                    WriteOutcome.FAILED,
                    writer.write(key, ChangeEvents.cacheRecord(NEWER)).outcome());
            assertTrue(OutageStore.refusedCalls() > 0);
            OutageStore.reset();
            assertEquals(
                    WriteOutcome.APPLIED,
                    writer.write(key, ChangeEvents.cacheRecord(NEWER)).outcome());
        }
        OutageStore.down(Duration.ofMinutes(1)); // not behind the switch: the store is not down
        try (CacheStore store = LocalStores.open(config())) {
            ScnOrderedWriter writer = new ScnOrderedWriter(store, WriterSettings.defaults(), Metrics.NONE);
            assertEquals(
                    WriteOutcome.APPLIED,
                    writer.write(key, ChangeEvents.cacheRecord(NEWER)).outcome());
        }
    }

    @Test
    void theToolsKeysAreChecked() {
        ConfigException unswitched =
                assertThrows(ConfigException.class, () -> LocalStores.open(config("outage.lose-prefix=member:")));
        assertTrue(unswitched.getMessage().contains("outage.enabled=true"), unswitched.getMessage());
        ConfigException typo =
                assertThrows(ConfigException.class, () -> LocalStores.open(config("outage.enabeld=true")));
        assertTrue(typo.getMessage().contains("outage.enabled"), typo.getMessage());
    }

    /** Asked for by the settings, blind writes are put around the store where a tool opens it, and only there. */
    @Test
    void onlyWhereAToolOpensTheStore(@TempDir Path own) {
        Config blind = config(own, BlindWrites.SETTING + "=true");
        long before = BlindWrites.upserts();
        try (CacheStore jobs = StoreOpener.CONFIGURED.open(blind)) {
            assertEquals(
                    ChangeEvents.cacheRecord(BlindWritesTest.NEWER).version(),
                    BlindWritesTest.versionAfterAReplay(jobs),
                    "ordered");
        }
        assertEquals(before, BlindWrites.upserts(), "the jobs' own opener wrote blind");
        try (CacheStore tools = LocalStores.OPENER.open(config(own, BlindWrites.SETTING + "=true"))) {
            assertEquals(
                    ChangeEvents.cacheRecord(BlindWritesTest.OLDER).version(),
                    BlindWritesTest.versionAfterAReplay(tools),
                    "blind");
        }
        assertEquals(before + 2, BlindWrites.upserts());
    }
}
