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
package io.nearline.engines.samzakit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.samza.config.Config;
import org.apache.samza.config.MapConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Samza's Kafka system with the job's client security: every consumer and producer Samza makes for the
 * system gets it (the admin reads the consumer's), and the config Samza logs and keeps in its
 * coordinator stream holds a reference to each password, never the password.
 */
class NearlineKafkaSystemFactoryTest {

    @TempDir
    Path dir;

    @Test
    void aPlaintextJobsConfigIsLeftAsItIs() {
        Config config = new MapConfig(Map.of("job.name", "j", "systems.kafka.consumer.bootstrap.servers", "k:9092"));
        assertSame(config, NearlineKafkaSystemFactory.secured("kafka", config));
    }

    @Test
    void saslOverTlsReachesTheSystemsConsumerAndProducerWithThePasswordByReference() throws Exception {
        Path password = Files.writeString(dir.resolve("kafka.password"), "s3cret-kafka");
        Path trustPassword = Files.writeString(dir.resolve("trust.password"), "s3cret-trust");
        Config config = new MapConfig(Map.of(
                "job.name", "j",
                "kafka.security.protocol", "sasl-ssl",
                "kafka.sasl.mechanism", "scram-sha-512",
                "kafka.sasl.username", "nearline",
                "kafka.sasl.password", "file:" + password,
                "kafka.ssl.truststore", dir.resolve("trust.p12").toString(),
                "kafka.ssl.truststore-password", "file:" + trustPassword));

        Config secured = NearlineKafkaSystemFactory.secured("kafka", config);
        for (String client : new String[] {"consumer", "producer"}) {
            String prefix = "systems.kafka." + client + ".";
            assertEquals("SASL_SSL", secured.get(prefix + "security.protocol"), client);
            assertEquals("SCRAM-SHA-512", secured.get(prefix + "sasl.mechanism"), client);
            assertEquals(dir.resolve("trust.p12").toString(), secured.get(prefix + "ssl.truststore.location"), client);
            assertTrue(secured.get(prefix + "sasl.jaas.config").contains("nearline"), client);
        }
        assertEquals("j", secured.get("job.name"), "the rest as it was");
        assertFalse(secured.containsKey("systems.other.consumer.security.protocol"), "only the system asked for");
        for (Map.Entry<String, String> e : secured.entrySet()) {
            assertFalse(e.getValue().contains("s3cret"), "no password in what Samza logs and keeps: " + e.getKey());
        }
    }
}
