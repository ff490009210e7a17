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

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.ConfigData;
import org.apache.kafka.common.config.provider.ConfigProvider;

/**
 * Resolves the job's Kafka secrets inside each Kafka client, on the machine that makes it: the
 * variables {@link KafkaSecurity#clientPropertiesByReference} writes, {@code ${nearline:secret:REF}}
 * and {@code ${nearline:jaas:REF}}, where REF is a {@link Secret} reference ({@code env:VARIABLE} or
 * {@code file:/path}). So what an engine keeps of a job's Kafka settings (a Flink job graph, Samza's
 * config and the logs that print it) carries the reference and never the password. Kafka 2.3 and later
 * resolve such variables in every client's config; the jobs bring the Kafka client, so common only
 * compiles against it.
 */
public final class SecretConfigProvider implements ConfigProvider {

    @Override
    public void configure(Map<String, ?> configs) {}

    /** No path is listed whole: each reference is its own key. */
    @Override
    public ConfigData get(String path) {
        return new ConfigData(Map.of());
    }

    @Override
    public ConfigData get(String path, Set<String> keys) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String reference : keys) {
            values.put(reference, resolve(path, reference));
        }
        return new ConfigData(values);
    }

    private static String resolve(String path, String reference) {
        Secret secret;
        try {
            secret = Secret.parse(reference);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("a Kafka secret must be env:VARIABLE or file:/path, not a value");
        }
        return switch (path) {
            case "secret" -> secret.reveal();
            case "jaas" -> KafkaSecurity.jaasQuoted(secret.reveal());
            default ->
                throw new ConfigException("${" + KafkaSecurity.PROVIDER + ":" + path
                        + ":...} is not a Nearline secret (secret: or jaas:)");
        };
    }

    @Override
    public void close() {}
}
