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
package io.nearline.feedtrackingjoin.samza;

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

/** The shipped config is a complete Samza config: app, store, changelog, serdes, and the app describes itself from it. */
class AppDescriptorTest {

    @Test
    void theShippedConfigConfiguresTheStoreAndTheApp() {
        Map<String, String> samza =
                Config.load(Path.of("conf/tracking-join.properties")).asMap();
        assertEquals(
                "org.apache.samza.storage.kv.RocksDbKeyValueStorageEngineFactory",
                samza.get("stores.join-state.factory"));
        assertEquals("string", samza.get("stores.join-state.key.serde"));
        assertEquals("org.apache.samza.serializers.ByteSerdeFactory", samza.get("serializers.registry.bytes.class"));
        assertEquals("3", samza.get("stores.join-state.changelog.replication.factor"));
        assertEquals("true", samza.get("task.transactional.state.restore.enabled"));
        assertEquals("false", samza.get("task.transactional.state.retain.existing.state"));
        assertEquals("0", samza.get("stores.join-state.object.cache.size"));
        assertTrue(
                Integer.parseInt(samza.get("systems.kafka.samza.fetch.threshold")) >= 100_000,
                "Samza's default fetch threshold (10,000 messages) leaves the tasks waiting for input");
        assertTrue(
                Integer.parseInt(samza.get("systems.kafka.producer.linger.ms")) > 0,
                "without a linger, the changelog goes out in many small requests");
        assertEquals(
                "0",
                samza.get("job.container.thread.pool.size"),
                "the tasks run on the run loop thread: a pool costs two thread hand-overs a message");
        assertInstanceOf(JoinApp.class, ApplicationUtil.fromConfig(new MapConfig(samza)));
        ApplicationDescriptorImpl<?> app =
                ApplicationDescriptorUtil.getAppDescriptor(new JoinApp(), new MapConfig(samza));
        assertEquals(Set.of("index", "broker"), app.getInputStreamIds());
        assertEquals(Set.of("joined", "orphans", "late", "deadletters"), app.getOutputStreamIds());
    }

    @Test
    void aConfigWithTheStoresObjectCacheIsRefused() {
        Map<String, String> samza = new HashMap<>(
                Config.load(Path.of("conf/tracking-join.properties")).asMap());
        samza.remove("stores.join-state.object.cache.size");
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> ApplicationDescriptorUtil.getAppDescriptor(new JoinApp(), new MapConfig(samza)));
        assertTrue(e.getMessage().contains("stores.join-state.object.cache.size is not set"), e.getMessage());
        samza.put("stores.join-state.object.cache.size", "1000");
        assertThrows(
                ConfigException.class,
                () -> ApplicationDescriptorUtil.getAppDescriptor(new JoinApp(), new MapConfig(samza)));
    }
}
