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
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jobs' Kafka properties carry references only, and a Kafka client made from them (as a task or a
 * container makes it) reads the same secrets the tools read at once: quotes and backslashes included.
 */
class SecretConfigProviderTest {

    @TempDir
    Path dir;

    private Config secured() throws Exception {
        Path password = Files.writeString(dir.resolve("kafka.password"), "planted-pa\"ss\\word-7f3e\n");
        Path stores = Files.writeString(dir.resolve("stores.password"), "planted-store-91c2");
        return Config.of(Map.of(
                "kafka.security.protocol",
                "sasl-ssl",
                "kafka.sasl.username",
                "nearline",
                "kafka.sasl.password",
                "file:" + password,
                "kafka.ssl.truststore",
                dir.resolve("truststore.p12").toString(),
                "kafka.ssl.truststore-password",
                "file:" + stores,
                "kafka.ssl.keystore",
                dir.resolve("client.p12").toString(),
                "kafka.ssl.keystore-password",
                "file:" + stores));
    }

    /** A consumer's config as Kafka builds it inside the client, variables resolved. */
    private static ConsumerConfig consumerConfig(Map<?, ?> security) {
        Map<String, Object> p = new HashMap<>();
        security.forEach((k, v) -> p.put((String) k, v));
        p.put("bootstrap.servers", "127.0.0.1:9");
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        return new ConsumerConfig(p);
    }

    @Test
    void theJobsPropertiesHoldReferencesThatTheClientResolvesAsTheToolsDo() throws Exception {
        Config config = secured();
        Properties byReference = new Properties();
        byReference.putAll(KafkaSecurity.from(config).clientPropertiesByReference());
        String all = byReference.toString();
        assertFalse(all.contains("planted"), all);
        assertTrue(all.contains("${nearline:jaas:file:" + dir.resolve("kafka.password") + "}"), all);

        Map<String, String> now = KafkaSecurity.from(config).clientProperties(); // the tools' form
        assertTrue(now.get("sasl.jaas.config").contains("planted-pa\\\"ss\\\\word-7f3e\""), now.toString());
        ConsumerConfig resolved = consumerConfig(byReference);
        for (String password :
                new String[] {"sasl.jaas.config", "ssl.truststore.password", "ssl.keystore.password", "ssl.key.password"
                }) {
            assertEquals(now.get(password), resolved.getPassword(password).value(), password);
        }
        // control: without the provider the client would take the variable as the password itself
        Properties unresolved = new Properties();
        unresolved.putAll(byReference);
        unresolved.remove("config.providers");
        assertEquals(
                byReference.getProperty("sasl.jaas.config"),
                consumerConfig(unresolved).getPassword("sasl.jaas.config").value());
    }

    @Test
    void plaintextNeedsNoProvider() {
        assertTrue(KafkaSecurity.from(Config.of(Map.of()))
                .clientPropertiesByReference()
                .isEmpty());
    }

    @Test
    void anUnknownPathOrAnInlineValueIsRefusedWithoutEchoingIt() {
        SecretConfigProvider provider = new SecretConfigProvider();
        RuntimeException path =
                assertThrows(RuntimeException.class, () -> provider.get("other", java.util.Set.of("env:HOME")));
        assertTrue(path.getMessage().contains("secret: or jaas:"), path.getMessage());
        RuntimeException inline =
                assertThrows(RuntimeException.class, () -> provider.get("secret", java.util.Set.of("hunter2")));
        assertFalse(inline.getMessage().contains("hunter2"), inline.getMessage());
    }
}
