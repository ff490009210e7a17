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

import io.nearline.common.config.KafkaSecurity;
import java.util.HashMap;
import java.util.Map;
import org.apache.samza.config.Config;
import org.apache.samza.config.MapConfig;
import org.apache.samza.metrics.MetricsRegistry;
import org.apache.samza.system.SystemAdmin;
import org.apache.samza.system.SystemConsumer;
import org.apache.samza.system.SystemProducer;
import org.apache.samza.system.kafka.KafkaSystemFactory;

/**
 * Samza's Kafka system with the job's client security ({@code kafka.security.*}): every consumer,
 * producer and admin client Samza makes for the system (inputs, outputs, checkpoints, changelogs, the
 * coordinator stream, metrics) gets it. Passwords are read where each client is made (the submitting
 * client, the ApplicationMaster, each container) and never written into the job's config, which Samza
 * keeps in its coordinator stream. Name it in {@code systems.kafka.samza.factory}.
 */
public class NearlineKafkaSystemFactory extends KafkaSystemFactory {

    @Override
    public SystemConsumer getConsumer(String system, Config config, MetricsRegistry registry) {
        return super.getConsumer(system, secured(system, config), registry);
    }

    @Override
    public SystemConsumer getConsumer(String system, Config config, MetricsRegistry registry, String clientId) {
        return super.getConsumer(system, secured(system, config), registry, clientId);
    }

    @Override
    public SystemProducer getProducer(String system, Config config, MetricsRegistry registry) {
        return super.getProducer(system, secured(system, config), registry);
    }

    @Override
    public SystemProducer getProducer(String system, Config config, MetricsRegistry registry, String clientId) {
        return super.getProducer(system, secured(system, config), registry, clientId);
    }

    @Override
    public SystemAdmin getAdmin(String system, Config config) {
        return super.getAdmin(system, secured(system, config));
    }

    @Override
    public SystemAdmin getAdmin(String system, Config config, String clientId) {
        return super.getAdmin(system, secured(system, config), clientId);
    }

    /**
     * {@code config} with the security as the system's consumer and producer settings (the admin reads
     * the consumer's), secrets as references that each Kafka client resolves as it is made: Samza logs
     * the configs it passes on, and those must not hold a password.
     */
    public static Config secured(String system, Config config) {
        Map<String, String> security =
                KafkaSecurity.from(SamzaConfig.nearline(config)).clientPropertiesByReference();
        if (security.isEmpty()) {
            return config;
        }
        Map<String, String> added = new HashMap<>();
        security.forEach((key, value) -> {
            added.put("systems." + system + ".consumer." + key, value);
            added.put("systems." + system + ".producer." + key, value);
        });
        return new MapConfig(config, added);
    }
}
