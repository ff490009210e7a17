package io.nearline.cacheupdater.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import io.nearline.common.testkit.ConfigDocsCheck;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WriterSettingsTest {

    @Test
    void defaultsAreFinite() {
        WriterSettings s = WriterSettings.defaults();
        assertEquals(Duration.ofDays(7), s.ttl());
        assertTrue(s.maxAttempts() > 1);
    }

    @Test
    void aZeroTtlIsRefusedByName() {
        ConfigException e =
                assertThrows(ConfigException.class, () -> WriterSettings.from(Config.of(Map.of("cache.ttl", "0s"))));
        assertTrue(
                e.getMessage().contains("'cache.ttl' = '0s'") && e.getMessage().contains("must be > 0"),
                e.getMessage());
    }

    @Test
    void backoffBoundsMustBeOrdered() {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> WriterSettings.from(
                        Config.of(Map.of("write.backoff.initial", "1s", "write.backoff.max", "10ms"))));
        assertTrue(e.getMessage().contains("'write.backoff.max' must be >= 'write.backoff.initial'"), e.getMessage());
    }

    @Test
    void docsListEveryKey() {
        ConfigDocsCheck.assertInSync("writer", WriterSettings.DEF);
    }
}
