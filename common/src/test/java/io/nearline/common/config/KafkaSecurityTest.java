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
package io.nearline.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaSecurityTest {

    @TempDir
    Path dir;

    @Test
    void plaintextByDefaultAddsNothingToTheClients() {
        KafkaSecurity none = KafkaSecurity.from(Config.empty());
        assertEquals(KafkaSecurity.NONE, none);
        assertTrue(none.clientProperties().isEmpty());
        assertTrue(none.settings().isEmpty());
    }

    @Test
    void saslSslGivesTheClientsItsUserPasswordAndTruststoreReadFromTheReferences() throws Exception {
        Path password = Files.writeString(dir.resolve("kafka.password"), "pa\"ss\\word\n");
        Path storePassword = Files.writeString(dir.resolve("store.password"), "changeit");
        Map<String, String> settings = Map.of(
                "kafka.security.protocol", "SASL_SSL",
                "kafka.sasl.mechanism", "SCRAM-SHA-512",
                "kafka.sasl.username", "nearline",
                "kafka.sasl.password", "file:" + password,
                "kafka.ssl.truststore", "/etc/kafka/ca.p12",
                "kafka.ssl.truststore-password", "file:" + storePassword);
        Map<String, String> p = KafkaSecurity.from(Config.of(settings)).clientProperties();
        assertEquals("SASL_SSL", p.get("security.protocol"));
        assertEquals("SCRAM-SHA-512", p.get("sasl.mechanism"));
        // the password's quote and backslash escaped inside the JAAS string, its trailing newline dropped
        assertEquals(
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"nearline\" "
                        + "password=\"pa\\\"ss\\\\word\";",
                p.get("sasl.jaas.config"));
        assertEquals("/etc/kafka/ca.p12", p.get("ssl.truststore.location"));
        assertEquals("PKCS12", p.get("ssl.truststore.type"));
        assertEquals("changeit", p.get("ssl.truststore.password"));
        assertFalse(p.containsKey("ssl.keystore.location"));
    }

    @Test
    void settingsHandOnTheReferencesNeverTheSecrets() throws Exception {
        Path password = Files.writeString(dir.resolve("kafka.password"), "s3cret");
        Map<String, String> settings = Map.of(
                "kafka.security.protocol", "sasl-plaintext",
                "kafka.sasl.username", "nearline",
                "kafka.sasl.password", "file:" + password);
        KafkaSecurity security = KafkaSecurity.from(Config.of(settings));
        Map<String, String> handedOn = security.settings();
        assertFalse(handedOn.containsValue("s3cret"), handedOn.toString());
        assertEquals(security, KafkaSecurity.from(Config.of(handedOn)));
        assertEquals("sasl-plaintext (plain, user nearline)", security.describe());
    }

    @Test
    void eachHalfSetWithoutTheOtherIsRefusedNamingTheKeys() {
        Map<Map<String, String>, String> refused = Map.of(
                Map.of("kafka.security.protocol", "sasl-ssl", "kafka.sasl.username", "nearline"),
                "kafka.sasl.password",
                Map.of("kafka.sasl.username", "nearline", "kafka.sasl.password", "env:KAFKA_PASSWORD"),
                "is not sasl-*",
                Map.of("kafka.ssl.truststore", "/etc/kafka/ca.p12"),
                "is not ssl or sasl-ssl",
                Map.of("kafka.security.protocol", "sasl-ssl", "kafka.sasl.username", "u", "kafka.sasl.password", "pw"),
                "kafka.sasl.password",
                Map.of("kafka.security.protocol", "tls"),
                "kafka.security.protocol");
        refused.forEach((settings, named) -> {
            ConfigException e = assertThrows(
                    ConfigException.class, () -> KafkaSecurity.from(Config.of(settings)), settings::toString);
            assertTrue(e.getMessage().contains(named), settings + ": " + e.getMessage());
        });
    }

    @Test
    void anUnsetEnvironmentVariableIsNamedWhereTheClientIsMade() {
        Map<String, String> settings = new HashMap<>();
        settings.put("kafka.security.protocol", "sasl-ssl");
        settings.put("kafka.sasl.username", "nearline");
        settings.put("kafka.sasl.password", "env:NEARLINE_TEST_UNSET_VARIABLE");
        KafkaSecurity security = KafkaSecurity.from(Config.of(settings)); // the form is right
        ConfigException e = assertThrows(ConfigException.class, security::clientProperties);
        assertTrue(e.getMessage().contains("export NEARLINE_TEST_UNSET_VARIABLE"), e.getMessage());
    }
}
