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
package io.nearline.engines.samzakit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import java.util.Map;
import org.apache.samza.config.MapConfig;
import org.junit.jupiter.api.Test;

/** The guards a Samza job's config must pass before the job starts, and the one file both configs share. */
class SamzaConfigTest {

    @Test
    void samzasAndNearlinesKeysAreReadFromOneConfig() {
        Config c = SamzaConfig.nearline(new MapConfig(Map.of(
                "job.name", "nearline-cache-updater", "cache.ttl", "7d", "stores.versions.object.cache.size", "0")));
        assertEquals("7d", c.asMap().get("cache.ttl"));
        assertEquals("nearline-cache-updater", c.asMap().get("job.name"), "Samza's keys pass through untouched");
    }

    /** Samza's object cache is on unless set to 0: a crash could then lose the newest writes of the store. */
    @Test
    void aChangeloggedStoreWithSamzasObjectCacheIsRefused() {
        String unset = refusal(() -> SamzaConfig.requireNoObjectCache(Config.of(Map.of()), "versions", "x.properties"));
        assertTrue(unset.contains("stores.versions.object.cache.size is not set"), unset);
        assertTrue(unset.contains("config/x.properties"), "names the shipped config that shows it: " + unset);

        String on = refusal(() -> SamzaConfig.requireNoObjectCache(
                Config.of(Map.of("stores.versions.object.cache.size", "1000")), "versions", "x.properties"));
        assertTrue(on.contains("stores.versions.object.cache.size is 1000: set it to 0"), on);

        // the control: the shipped setting passes, spaces and all
        assertDoesNotThrow(() -> SamzaConfig.requireNoObjectCache(
                Config.of(Map.of("stores.versions.object.cache.size", " 0 ")), "versions", "x.properties"));
    }

    /** An asynchronous commit could record input positions whose cache writes are still pending. */
    @Test
    void anAsynchronousCommitIsRefused() {
        String why = refusal(() -> SamzaConfig.requireSyncCommit(Config.of(Map.of("task.async.commit", "true"))));
        assertTrue(why.contains("task.async.commit is true: remove it"), why);
        assertDoesNotThrow(() -> SamzaConfig.requireSyncCommit(Config.of(Map.of("task.async.commit", "false"))));
        assertDoesNotThrow(() -> SamzaConfig.requireSyncCommit(Config.of(Map.of())), "Samza's default commits in step");
    }

    private static String refusal(Runnable check) {
        return assertThrows(ConfigException.class, check::run).getMessage();
    }
}
