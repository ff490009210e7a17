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
package io.nearline.cacheupdater.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.storecouchbase.CouchbaseStoreSettings;
import io.nearline.cdcbootstrap.core.BootstrapSettings;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import io.nearline.common.config.Secret;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shipped descriptor stays valid, and a job with a typo or an inline secret does not start. */
class JobDescriptorTest {

    private static Config shipped(String... sets) {
        String[] args = new String[2 + 2 * sets.length];
        args[0] = "--config";
        args[1] = "conf/cache-updater.yaml";
        for (int i = 0; i < sets.length; i++) {
            args[2 + 2 * i] = "--set";
            args[3 + 2 * i] = sets[i];
        }
        return Config.fromArgs(args);
    }

    @Test
    void shippedDescriptorIsValidAndCarriesNoEngineSettings() {
        Config config = shipped();
        CacheUpdaterSettings.validateJob(config, BootstrapSettings.DEF);
        assertEquals("profile-cache-updater", CacheUpdaterSettings.from(config).consumerGroup());
        assertEquals(
                "env:NEARLINE_COUCHBASE_PASSWORD",
                config.get(CouchbaseStoreSettings.PASSWORD).reference());
        assertFalse(
                config.asMap().keySet().stream().anyMatch(k -> k.startsWith("job.")),
                "parallelism and checkpoints are Flink's own settings");
    }

    @Test
    void aTypoStopsTheJobBeforeItStarts() {
        Config config = shipped("couchbase.bucketname=x", "write.batch.max-keys=0");
        ConfigException e = assertThrows(ConfigException.class, () -> CacheUpdaterSettings.validateJob(config));
        assertTrue(
                e.getMessage().contains("unknown key 'couchbase.bucketname'. Did you mean 'couchbase.bucket'?"),
                e.getMessage());
        assertTrue(e.getMessage().contains("'write.batch.max-keys' = '0'"), e.getMessage());
    }

    @Test
    void aMisspeltNamespaceIsNotTakenForAnEngineKey() {
        Config config = shipped("cahce.ttl=1h");
        ConfigException e = assertThrows(ConfigException.class, () -> CacheUpdaterSettings.validateJob(config));
        assertTrue(e.getMessage().contains("Did you mean 'cache.ttl'?"), e.getMessage());
        // an engine's own key passes through
        CacheUpdaterSettings.validateJob(shipped("execution.checkpointing.interval=5s", "state.backend.type=rocksdb"));
    }

    @Test
    void aPasswordWrittenInlineIsRefusedAndNeverPrinted() {
        Config inline = shipped("couchbase.password=hunter2");
        ConfigException e = assertThrows(ConfigException.class, () -> CacheUpdaterSettings.validateJob(inline));
        assertTrue(
                e.getMessage().contains("'couchbase.password'")
                        && e.getMessage().contains("env:VARIABLE or file:"),
                e.getMessage());
        assertFalse(inline.toString().contains("hunter2"), inline.toString());
        assertEquals(Secret.NONE, Secret.parse(""));
    }

    @Test
    void anUnknownStoreNamesTheChoices() {
        Config config = Config.of(Map.of("kafka.bootstrap-servers", "b:1", "cache.store", "memcached"));
        ConfigException e = assertThrows(ConfigException.class, () -> CacheUpdaterSettings.validateJob(config));
        assertTrue(
                e.getMessage().contains("'cache.store' = 'memcached' is not a store on this classpath")
                        && e.getMessage().contains("couchbase")
                        && e.getMessage().contains("redis")
                        && e.getMessage().contains("rocksdb"),
                e.getMessage());
    }
}
