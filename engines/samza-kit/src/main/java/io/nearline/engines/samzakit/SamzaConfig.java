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

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import java.util.HashMap;
import java.util.Map;

/** A Samza job's config as Nearline's {@link Config}: one file holds both, in namespaces that never clash. */
public final class SamzaConfig {

    private SamzaConfig() {}

    public static Config nearline(org.apache.samza.config.Config samza) {
        Map<String, String> raw = new HashMap<>();
        samza.forEach(raw::put);
        return Config.of(raw);
    }

    /**
     * Refuses a config whose changelogged {@code store} keeps Samza's object cache (on by default).
     * Samza 1.8 flushes the producers before the store's object cache at a commit, so the cache's dirty
     * entries reach the changelog after the offset the commit records; the rollback after a crash then
     * drops them. {@code shippedFile} names the job's config that shows the setting.
     */
    public static void requireNoObjectCache(Config config, String store, String shippedFile) {
        String key = "stores." + store + ".object.cache.size";
        String size = config.asMap().get(key);
        if (size == null || !size.strip().equals("0")) {
            throw new ConfigException(key + " is " + (size == null ? "not set (Samza's default is 1000)" : size)
                    + ": set it to 0; with the cache a crash can lose the store's newest writes (see the shipped"
                    + " config/" + shippedFile + ")");
        }
    }

    /**
     * An asynchronous task that completes a message's callback only once its output is durable relies on
     * Samza committing only when no callback is pending: {@code task.async.commit=true} commits meanwhile.
     */
    public static void requireSyncCommit(Config config) {
        String async = config.asMap().get("task.async.commit");
        if (async != null && Boolean.parseBoolean(async.strip())) {
            throw new ConfigException("task.async.commit is true: remove it (or set false); an asynchronous commit"
                    + " can record input positions whose cache writes are not done yet");
        }
    }
}
