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
package io.nearline.cacheupdater.connect;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.config.ConfigException;
import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.Namespaces;
import io.nearline.common.store.CacheStoreProvider;
import io.nearline.common.store.CacheStores;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The connector's settings: the cache updater's own keys under the names the jobs use
 * ({@code cache.store}, {@code cache.ttl}, {@code cdc.format}, {@code couchbase.*}, {@code redis.*},
 * {@code write.*}, ...), declared to Connect from Nearline's typed definitions and checked by the same
 * code, so Connect's validation gives the jobs' one-line errors and suggestions. What Connect decides
 * itself (input topics, consumer group, dead-letter topic, Kafka's addresses and security) is refused
 * under the jobs' names, with the Connect setting to use instead.
 */
final class SinkSettings {

    static final String BYTE_ARRAY_CONVERTER = "org.apache.kafka.connect.converters.ByteArrayConverter";

    /** The job settings that Connect owns here, and where the user says the same thing instead. */
    static final Map<String, String> CONNECT_OWNS = Map.of(
            CacheUpdaterSettings.BOOTSTRAP_SERVERS.name(), "the worker's bootstrap.servers",
            CacheUpdaterSettings.CDC_TOPIC.name(), "'topics' (or 'topics.regex')",
            CacheUpdaterSettings.DEAD_LETTER_TOPIC.name(), "'errors.deadletterqueue.topic.name'",
            CacheUpdaterSettings.CONSUMER_GROUP.name(), "the connector's name (its consumer group is connect-NAME)");

    /**
     * Connect settings the connector needs as stated: raw bytes in (the decoders read the records as
     * the jobs do), and every record it cannot take on the dead-letter topic with Connect's context
     * headers, the reason among them, instead of failing the task.
     */
    static final Map<String, String> REQUIRED_CONNECT = requiredConnect();

    private static Map<String, String> requiredConnect() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("key.converter", BYTE_ARRAY_CONVERTER);
        m.put("value.converter", BYTE_ARRAY_CONVERTER);
        m.put("errors.tolerance", "all");
        m.put("errors.deadletterqueue.context.headers.enable", "true");
        return m;
    }

    static final String DLQ_TOPIC = "errors.deadletterqueue.topic.name";

    private static final Pattern QUOTED_KEY = Pattern.compile("'([a-z0-9][a-z0-9._-]*)'");

    private SinkSettings() {}

    /** The job's settings less what Connect owns here, with the job's rules across them. */
    static final ConfigDef JOB = jobDef();

    private static ConfigDef jobDef() {
        ConfigDef def = ConfigDef.of(
                "cache sink connector",
                CacheUpdaterSettings.DEF.keys().stream()
                        .filter(k -> !CONNECT_OWNS.containsKey(k.name()))
                        .toArray(ConfigKey<?>[]::new));
        for (ConfigDef.Invariant rule : CacheUpdaterSettings.DEF.invariants()) {
            def = def.withInvariant(rule.holds(), rule.problem());
        }
        return def;
    }

    /** Every Nearline definition the connector declares: the job's (less what Connect owns), the writer's, each store's. */
    static List<ConfigDef> defs() {
        List<ConfigDef> defs = new ArrayList<>(List.of(JOB, WriterSettings.DEF));
        for (CacheStoreProvider store : CacheStores.providers().values()) {
            defs.add(store.settings());
        }
        return defs;
    }

    /** What a config with this store is checked against: the job's, the writer's, and that store's settings. */
    private static ConfigDef[] defsFor(Config config) {
        CacheStoreProvider store = CacheStores.provider(config);
        return new ConfigDef[] {JOB, WriterSettings.DEF, store.settings()};
    }

    /** The keys declared to Connect, in the order of their definitions. */
    static List<ConfigKey<?>> keys() {
        Map<String, ConfigKey<?>> keys = new LinkedHashMap<>();
        for (ConfigDef def : defs()) {
            for (ConfigKey<?> key : def.keys()) {
                keys.putIfAbsent(key.name(), key);
            }
        }
        return List.copyOf(keys.values());
    }

    /** Connect's definition of the connector's settings, from Nearline's: every key a string checked by {@link #problems}. */
    static org.apache.kafka.common.config.ConfigDef connectDef() {
        org.apache.kafka.common.config.ConfigDef def = new org.apache.kafka.common.config.ConfigDef();
        for (ConfigKey<?> key : keys()) {
            boolean store = key.name().equals(CacheStores.STORE.name());
            def.define(
                    key.name(),
                    org.apache.kafka.common.config.ConfigDef.Type.STRING,
                    // no default where the key is required, and checked by problems(): Connect's own
                    // "missing" message would only repeat Nearline's, and a store's keys apply to it alone
                    store || key.isRequired() ? null : defaultText(key),
                    store
                            ? org.apache.kafka.common.config.ConfigDef.Importance.HIGH
                            : org.apache.kafka.common.config.ConfigDef.Importance.MEDIUM,
                    store ? "Which cache the connector writes to: couchbase or redis." : key.description());
        }
        return def;
    }

    private static <T> String defaultText(ConfigKey<T> key) {
        return key.type().format(key.defaultValue());
    }

    /** The Nearline settings among a connector's: the keys in Nearline's namespaces. */
    static Config nearline(Map<String, String> props) {
        Map<String, String> mine = new LinkedHashMap<>();
        props.forEach((k, v) -> {
            if (Namespaces.isNearline(k) && v != null) {
                mine.put(k, v);
            }
        });
        return Config.of(mine);
    }

    /**
     * Every problem with a connector's settings, by the key it is about (its first quoted key, else
     * {@code cache.store}); empty when it can start. The Connect settings are checked where the
     * connector's config states them: a worker's own default is not visible to a connector.
     */
    static Map<String, List<String>> problems(Map<String, String> props) {
        Map<String, List<String>> problems = new LinkedHashMap<>();
        String store = props.get(CacheStores.STORE.name());
        if (store == null || store.isBlank()) {
            add(problems, CacheStores.STORE.name(), "'cache.store' is required: couchbase or redis.");
        } else if (store.strip().equals("rocksdb")) {
            add(
                    problems,
                    CacheStores.STORE.name(),
                    "'cache.store' = 'rocksdb' is not for a connector: the embedded store lives inside one "
                            + "process, and a Connect worker's tasks move between workers. Use couchbase or redis.");
        }
        CONNECT_OWNS.forEach((key, instead) -> {
            if (props.containsKey(key)) {
                add(problems, key, "'" + key + "' is Kafka Connect's to say here: use " + instead + " instead.");
            }
        });
        for (String key : props.keySet()) {
            if (key.startsWith("kafka.") && !CONNECT_OWNS.containsKey(key)) {
                add(
                        problems,
                        key,
                        "'" + key + "' is Kafka Connect's to say here: set the worker's consumer.* and producer.* "
                                + "security settings instead.");
            }
        }
        REQUIRED_CONNECT.forEach((key, value) -> {
            String given = props.get(key);
            if (given == null || !given.strip().equals(value)) {
                add(
                        problems,
                        key,
                        "'" + key + "' must be " + value + " for the Nearline cache sink"
                                + (given == null ? " (not set)." : ", not " + given.strip() + "."));
            }
        });
        String dlq = props.get(DLQ_TOPIC);
        if (dlq == null || dlq.isBlank()) {
            add(
                    problems,
                    DLQ_TOPIC,
                    "'" + DLQ_TOPIC + "' is required: the topic that receives records the "
                            + "connector cannot take, with the reason in their headers (for example nearline.cdc.dlq).");
        }
        if (problems.isEmpty()) {
            try {
                Config config = nearline(props);
                config.validateComplete(defsFor(config));
            } catch (ConfigException e) {
                for (String problem : e.problems()) {
                    add(problems, keyOf(problem), problem);
                }
            }
        }
        return problems;
    }

    /** Refuses settings with problems: one exception naming them all, for a connector or task that will not start. */
    static void requireValid(Map<String, String> props) {
        Map<String, List<String>> problems = problems(props);
        if (!problems.isEmpty()) {
            throw new ConnectException(String.join(
                    " ", problems.values().stream().flatMap(List::stream).toList()));
        }
    }

    /** The key a problem is about: the first quoted setting name in it, else {@code cache.store}. */
    static String keyOf(String problem) {
        Matcher m = QUOTED_KEY.matcher(problem);
        return m.find() ? m.group(1) : CacheStores.STORE.name();
    }

    private static void add(Map<String, List<String>> problems, String key, String problem) {
        problems.computeIfAbsent(key, k -> new ArrayList<>()).add(problem);
    }

    /** This build's version, from the jar. */
    static String version() {
        try (InputStream in = SinkSettings.class.getResourceAsStream("/nearline-connect.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
