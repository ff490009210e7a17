package io.nearline.cacheupdater.samza;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.common.config.Config;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The shipped descriptor stays valid, and the local-run config carries every Nearline key through. */
class AppDescriptorTest {

    @Test
    void shippedDescriptorIsValidAndReachesTheTasks() {
        Config config = Config.load(Path.of("conf/cache-updater.properties"));
        CacheUpdaterSettings.validateJob(config);
        Map<String, String> samza = CacheUpdaterApp.localRunConfig(config);
        assertEquals("profile-cache", samza.get("store.couchbase.bucket"));
        assertEquals("5000", samza.get("task.commit.ms"));
        assertEquals("8", samza.get("job.container.thread.pool.size"));
        assertEquals("kafka-1:9092,kafka-2:9092,kafka-3:9092", samza.get("systems.kafka.consumer.bootstrap.servers"));
    }
}
