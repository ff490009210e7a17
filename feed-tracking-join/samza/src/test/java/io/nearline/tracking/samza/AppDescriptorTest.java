package io.nearline.tracking.samza;

import io.nearline.common.config.Config;
import io.nearline.tracking.join.JoinSettings;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The shipped descriptor stays valid, and the Samza config carries the store and every Nearline key. */
class AppDescriptorTest {

    @Test
    void shippedDescriptorIsValidAndConfiguresTheStore() {
        Config config = Config.load(Path.of("conf/tracking-join.properties"));
        JoinSettings.validateJob(config);
        Map<String, String> samza = JoinApp.config(config, Path.of("/var/lib/nearline/state"));
        assertEquals("30s", samza.get("join.window"));
        assertEquals("org.apache.samza.storage.kv.RocksDbKeyValueStorageEngineFactory", samza.get("stores.join-state.factory"));
        assertEquals("kafka.followfeed-tracking-join-join-state-changelog", samza.get("stores.join-state.changelog"));
        assertEquals("10000", samza.get("task.commit.ms"));
    }
}
