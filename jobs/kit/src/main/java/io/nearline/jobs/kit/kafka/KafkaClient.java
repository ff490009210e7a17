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
package io.nearline.jobs.kit.kafka;

import io.nearline.common.config.Config;
import io.nearline.common.config.JobKeys;
import io.nearline.common.config.KafkaSecurity;
import java.util.HashMap;
import java.util.Map;

/**
 * Where the tools' Kafka clients connect and how: the brokers, and the same security a job's clients
 * use ({@code kafka.security.*}, {@code kafka.sasl.*}, {@code kafka.ssl.*}).
 */
public record KafkaClient(String servers, KafkaSecurity security) {

    /** A broker that takes plaintext clients: the tools' own embedded one, a replay's, a testbed's. */
    public static KafkaClient plaintext(String servers) {
        return new KafkaClient(servers, KafkaSecurity.NONE);
    }

    /** From settings: {@code kafka.bootstrap-servers} and the security keys. */
    public static KafkaClient from(Config config) {
        return new KafkaClient(config.get(JobKeys.BOOTSTRAP_SERVERS), KafkaSecurity.from(config));
    }

    /** A client's properties to start from: the brokers and the security, secrets read now. */
    public Map<String, Object> properties() {
        Map<String, Object> p = new HashMap<>(security.clientProperties());
        p.put("bootstrap.servers", servers);
        return p;
    }

    /** The Nearline settings that name these brokers and this security, to hand on to another command. */
    public Map<String, String> settings() {
        Map<String, String> s = new HashMap<>(security.settings());
        s.put(JobKeys.BOOTSTRAP_SERVERS.name(), servers);
        return s;
    }

    @Override
    public String toString() {
        return servers;
    }
}
