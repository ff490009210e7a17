package io.nearline.store.couchbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CouchbaseStoreSettingsTest {

    private static Config config(String connectionString) {
        return Config.of(Map.of(
                "couchbase.connection-string", connectionString,
                "couchbase.username", "nearline",
                "couchbase.password", "env:NEARLINE_COUCHBASE_PASSWORD",
                "couchbase.bucket", "nearline"));
    }

    @Test
    void theGrpcTransportIsRefusedBeforeAnythingStarts() {
        ConfigException e = assertThrows(
                ConfigException.class, () -> CouchbaseStoreSettings.from(config("couchbase2://db.example")));
        assertTrue(e.getMessage().contains("couchbase.connection-string"), e.getMessage());
        assertTrue(e.getMessage().contains("couchbase2:// is not supported"), e.getMessage());
    }

    @Test
    void aNamedScopeAndCollectionAreRead() {
        Map<String, String> named =
                new java.util.HashMap<>(config("couchbase://db.example").asMap());
        named.put("couchbase.scope", "profiles");
        named.put("couchbase.collection", "cache");
        CouchbaseStoreSettings s = CouchbaseStoreSettings.from(Config.of(named));
        assertEquals("profiles", s.scope());
        assertEquals("cache", s.collection());
        assertTrue(s.toString().contains("nearline.profiles.cache"), "named in logs: " + s);
        assertTrue(!s.toString().contains("NEARLINE_COUCHBASE_PASSWORD"), "the password reference stays out of logs");
    }

    @Test
    void classicAndTlsConnectionStringsAreTaken() {
        for (String s : new String[] {"couchbase://db.example", "couchbases://db.example:11207"}) {
            assertEquals(s, CouchbaseStoreSettings.from(config(s)).connectionString());
        }
    }
}
