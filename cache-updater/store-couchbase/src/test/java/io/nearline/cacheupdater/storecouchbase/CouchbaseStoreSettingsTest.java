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
package io.nearline.cacheupdater.storecouchbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import io.nearline.common.store.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /** Settings for a TLS connection to {@code host} trusting a file that holds no certificate. */
    private static Map<String, String> trustingJunk(Path dir, String host) throws Exception {
        Path pem = Files.writeString(dir.resolve("ca.pem"), "not a certificate\n");
        Map<String, String> tls =
                new java.util.HashMap<>(config("couchbases://" + host).asMap());
        tls.put("couchbase.tls.trust-certificate", pem.toString());
        return tls;
    }

    @Test
    void aTrustCertificateIsTakenWithTlsOnly(@TempDir Path dir) throws Exception {
        Map<String, String> tls = trustingJunk(dir, "db.example");
        tls.put("couchbase.tls.verify-hostname", "false");
        CouchbaseStoreSettings s = CouchbaseStoreSettings.from(Config.of(tls));
        assertTrue(s.tls());
        assertEquals(dir.resolve("ca.pem").toString(), s.tlsTrustCertificate());
        assertEquals(false, s.tlsVerifyHostname());

        tls.put("couchbase.connection-string", "couchbase://db.example");
        ConfigException plain = assertThrows(ConfigException.class, () -> CouchbaseStoreSettings.from(Config.of(tls)));
        assertTrue(plain.getMessage().contains("couchbase.tls.trust-certificate is set"), plain.getMessage());
        assertTrue(plain.getMessage().contains("couchbases://"), plain.getMessage());

        tls.put("couchbase.connection-string", "couchbases://db.example");
        tls.put("couchbase.tls.trust-certificate", dir.resolve("missing.pem").toString());
        ConfigException missing =
                assertThrows(ConfigException.class, () -> CouchbaseStoreSettings.from(Config.of(tls)));
        assertTrue(missing.getMessage().contains("no readable file there"), missing.getMessage());
    }

    @Test
    void aTrustCertificateThatIsNoCertificateStopsTheClientWithTheReason(@TempDir Path dir) throws Exception {
        Map<String, String> tls = trustingJunk(dir, "127.0.0.1");
        tls.put("couchbase.password", SecretFiles.reference("secret"));
        StoreException e = assertThrows(
                StoreException.class, () -> CouchbaseCacheStore.connect(CouchbaseStoreSettings.from(Config.of(tls))));
        assertTrue(e.getMessage().contains("couchbase.tls"), e.getMessage());
    }
}
