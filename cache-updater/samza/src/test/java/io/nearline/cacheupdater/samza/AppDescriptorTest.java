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
package io.nearline.cacheupdater.samza;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.samza.application.ApplicationUtil;
import org.apache.samza.application.descriptors.ApplicationDescriptorImpl;
import org.apache.samza.application.descriptors.ApplicationDescriptorUtil;
import org.apache.samza.config.MapConfig;
import org.junit.jupiter.api.Test;

/** The shipped config is a complete Samza config: Samza finds the app in it, and the app describes itself from it. */
class AppDescriptorTest {

    private static Map<String, String> shipped() {
        return Config.load(Path.of("conf/cache-updater.properties")).asMap();
    }

    @Test
    void theShippedConfigNamesEverythingSamzaNeeds() {
        Map<String, String> samza = shipped();
        for (String key : new String[] {
            "app.class",
            "job.name",
            "job.factory.class",
            "yarn.package.path",
            "systems.kafka.samza.factory",
            "systems.kafka.consumer.bootstrap.servers",
            "task.checkpoint.factory",
            "task.commit.ms",
            "job.container.count",
            "metrics.reporters"
        }) {
            assertTrue(samza.containsKey(key), key);
        }
        assertEquals("org.apache.samza.job.yarn.YarnJobFactory", samza.get("job.factory.class"));
        assertInstanceOf(CacheUpdaterApp.class, ApplicationUtil.fromConfig(new MapConfig(samza)));
    }

    @Test
    void theAppWiresItsStreamsFromConfig() {
        ApplicationDescriptorImpl<?> app =
                ApplicationDescriptorUtil.getAppDescriptor(new CacheUpdaterApp(), new MapConfig(shipped()));
        assertEquals(
                Set.of("cdc", "bootstrap"), app.getInputStreamIds(), "bootstrap.enabled=true in the shipped config");
        assertEquals(Set.of("deadletters"), app.getOutputStreamIds());
    }

    @Test
    void theBootstrapProgressStoreMustHaveNoObjectCache() {
        Map<String, String> samza = new HashMap<>(shipped());
        assertEquals("0", samza.get("stores.bootstrap-progress.object.cache.size"));
        assertEquals("true", samza.get("task.transactional.state.restore.enabled"));
        assertEquals("false", samza.get("task.transactional.state.retain.existing.state"));
        samza.put("stores.bootstrap-progress.object.cache.size", "1000");
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> ApplicationDescriptorUtil.getAppDescriptor(new CacheUpdaterApp(), new MapConfig(samza)));
        assertTrue(
                e.getMessage().contains("stores.bootstrap-progress.object.cache.size is 1000: set it to 0"),
                e.getMessage());
        samza.put("bootstrap.enabled", "false");
        ApplicationDescriptorUtil.getAppDescriptor(new CacheUpdaterApp(), new MapConfig(samza)); // no store used
    }

    @Test
    void anAsynchronousCommitIsRefused() {
        Map<String, String> samza = new HashMap<>(shipped());
        assertTrue(Integer.parseInt(samza.get("task.max.concurrency")) > 1, "writes are batched across messages");
        samza.put("task.async.commit", "true");
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> ApplicationDescriptorUtil.getAppDescriptor(new CacheUpdaterApp(), new MapConfig(samza)));
        assertTrue(e.getMessage().contains("task.async.commit is true: remove it"), e.getMessage());
    }

    @Test
    void aMisspeltNearlineKeyStopsTheAppBeforeItStarts() {
        Map<String, String> samza = new HashMap<>(shipped());
        samza.put("cdc.topc", "x");
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> ApplicationDescriptorUtil.getAppDescriptor(new CacheUpdaterApp(), new MapConfig(samza)));
        assertTrue(e.getMessage().contains("Did you mean 'cdc.topic'?"), e.getMessage());
    }
}
