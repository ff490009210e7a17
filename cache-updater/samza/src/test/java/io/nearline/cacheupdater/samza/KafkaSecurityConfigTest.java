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
package io.nearline.cacheupdater.samza;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.config.Config;
import io.nearline.engines.samzakit.NearlineCoordinatorStreamConfigFactory;
import io.nearline.engines.samzakit.NearlineKafkaSystemFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.samza.config.MapConfig;
import org.apache.samza.util.CoordinatorStreamConfigFactory;
import org.apache.samza.util.ReflectionUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped config secures every Kafka client Samza makes with the job's {@code kafka.security.*}:
 * the Kafka system it names adds the security to the system's consumer and producer settings, and
 * the config an ApplicationMaster starts from carries the references. The password itself is read
 * only where a client is made, never written into the config Samza stores.
 */
class KafkaSecurityConfigTest {

    @TempDir
    Path dir;

    private Map<String, String> shippedWithSecurity() throws Exception {
        Map<String, String> config = new HashMap<>(
                Config.load(Path.of("conf/cache-updater.properties")).asMap());
        config.put("kafka.security.protocol", "sasl-ssl");
        config.put("kafka.sasl.username", "nearline");
        config.put("kafka.sasl.password", "file:" + Files.writeString(dir.resolve("kafka.password"), "s3cret"));
        config.put("kafka.ssl.truststore", "/etc/kafka/ca.p12");
        config.put("job.name", "nearline-cache-updater-samza");
        config.put("systems.kafka.consumer.bootstrap.servers", "10.0.0.2:9093");
        return config;
    }

    @Test
    void theKafkaSystemAddsTheSecurityToItsConsumersAndProducers() throws Exception {
        Map<String, String> config = shippedWithSecurity();
        assertEquals(NearlineKafkaSystemFactory.class.getName(), config.get("systems.kafka.samza.factory"));
        MapConfig stored = new MapConfig(config);
        org.apache.samza.config.Config secured = NearlineKafkaSystemFactory.secured("kafka", stored);
        for (String client : new String[] {"consumer", "producer"}) {
            assertEquals("SASL_SSL", secured.get("systems.kafka." + client + ".security.protocol"));
            assertEquals("/etc/kafka/ca.p12", secured.get("systems.kafka." + client + ".ssl.truststore.location"));
            assertTrue(secured.get("systems.kafka." + client + ".sasl.jaas.config")
                    .contains("password=\"${nearline:jaas:file:" + dir.resolve("kafka.password") + "}\""));
        }
        // what Samza keeps and logs of either config holds the reference, never the password
        for (org.apache.samza.config.Config c : new org.apache.samza.config.Config[] {stored, secured}) {
            assertFalse(c.values().stream().anyMatch(v -> v.contains("s3cret")), c.toString());
        }

        Map<String, String> plain = new HashMap<>(config);
        plain.keySet().removeIf(k -> k.startsWith("kafka."));
        MapConfig plaintext = new MapConfig(plain);
        assertSame(plaintext, NearlineKafkaSystemFactory.secured("kafka", plaintext));
    }

    @Test
    void theApplicationMastersFirstConfigCarriesTheReferences() throws Exception {
        Map<String, String> config = shippedWithSecurity();
        CoordinatorStreamConfigFactory factory = ReflectionUtil.getObj(
                config.get("job.coordinatorstream.config.factory"), CoordinatorStreamConfigFactory.class);
        assertTrue(factory instanceof NearlineCoordinatorStreamConfigFactory);
        org.apache.samza.config.Config first = factory.buildCoordinatorStreamConfig(new MapConfig(config));
        assertEquals("sasl-ssl", first.get("kafka.security.protocol"));
        assertEquals(config.get("kafka.sasl.password"), first.get("kafka.sasl.password"));
        assertEquals("10.0.0.2:9093", first.get("systems.kafka.consumer.bootstrap.servers"));
        assertFalse(first.containsKey("cache.store"), "only what the coordinator stream needs");
        // and what the first read's clients get from it is secured
        assertEquals(
                "SASL_SSL",
                NearlineKafkaSystemFactory.secured("kafka", first).get("systems.kafka.consumer.security.protocol"));
    }
}
