package io.nearline.tracking.samza;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.nearline.common.config.Config;
import java.nio.file.Path;
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
        assertInstanceOf(JoinApp.class, ApplicationUtil.fromConfig(new MapConfig(samza)));
        ApplicationDescriptorImpl<?> app =
                ApplicationDescriptorUtil.getAppDescriptor(new JoinApp(), new MapConfig(samza));
        assertEquals(Set.of("index", "broker"), app.getInputStreamIds());
        assertEquals(Set.of("joined", "orphans", "late", "deadletters"), app.getOutputStreamIds());
    }
}
