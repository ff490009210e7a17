package io.nearline.cacheupdater.flink;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shipped descriptor stays valid, and a job with a typo does not start. */
class JobDescriptorTest {

    @Test
    void shippedDescriptorIsValid() {
        Config config = Config.fromArgs(new String[] {"--config", Path.of("conf/cache-updater.yaml").toString()});
        CacheUpdaterSettings.validateJob(config);
        CacheUpdaterSettings settings = CacheUpdaterSettings.from(config);
        assertEquals(8, settings.parallelism());
        assertEquals(Duration.ofSeconds(5), settings.checkpointInterval());
    }

    @Test
    void aTypoStopsTheJobBeforeItStarts() {
        Config config = Config.fromArgs(new String[] {"--config", "conf/cache-updater.yaml",
                "--set", "store.couchbase.bucketname=x", "--set", "write.batch.max-keys=0"});
        ConfigException e = assertThrows(ConfigException.class, () -> CacheUpdaterSettings.validateJob(config));
        assertTrue(e.getMessage().contains("unknown key 'store.couchbase.bucketname'. Did you mean 'store.couchbase.bucket'?"), e.getMessage());
        assertTrue(e.getMessage().contains("'write.batch.max-keys' = '0'"), e.getMessage());
    }

    @Test
    void anUnknownStoreNamesTheChoices() {
        Config config = Config.of(Map.of("kafka.bootstrap-servers", "b:1", "cache.store", "redis"));
        ConfigException e = assertThrows(ConfigException.class, () -> CacheUpdaterSettings.validateJob(config));
        assertTrue(e.getMessage().contains("'cache.store' = 'redis' is not a store on this classpath")
                && e.getMessage().contains("couchbase") && e.getMessage().contains("rocksdb"), e.getMessage());
    }
}
