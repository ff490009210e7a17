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
package io.nearline.engines.flinkkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.config.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Kafka connector's security properties hold references, never the password, so the job graph does not. */
class KafkaClientSecurityTest {

    @Test
    void plaintextNeedsNoProperties() {
        assertTrue(KafkaClientSecurity.of(Config.empty()).isEmpty());
    }

    @TempDir
    Path dir;

    @Test
    void aPasswordIsHandedOnAsAReferenceTheClientResolves() throws Exception {
        Path password = Files.writeString(dir.resolve("kafka-password"), "s3cret");
        Properties p = KafkaClientSecurity.of(Config.of(Map.of(
                "kafka.security.protocol", "sasl-plaintext",
                "kafka.sasl.username", "nearline",
                "kafka.sasl.password", "file:" + password)));
        assertEquals("SASL_PLAINTEXT", p.getProperty("security.protocol"));
        String jaas = p.getProperty("sasl.jaas.config");
        assertTrue(jaas.contains("${nearline:jaas:file:" + password + "}"), jaas);
        assertEquals("nearline", p.getProperty("config.providers"), "the provider that resolves it on the tasks");
        assertFalse(p.toString().contains("s3cret"), "the password itself is nowhere in what the job graph holds");
    }
}
