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

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * The cache updater as a Kafka Connect sink: each task applies the change records of its partitions
 * to Couchbase or Redis through the same version-ordered write as the Flink and Samza jobs
 * ({@link CacheSinkTask}). Settings are the jobs' own keys; see {@link SinkSettings}.
 */
public final class CacheSinkConnector extends SinkConnector {

    private Map<String, String> props = Map.of();

    @Override
    public String version() {
        return SinkSettings.version();
    }

    @Override
    public ConfigDef config() {
        return SinkSettings.connectDef();
    }

    /**
     * Connect's own checks, then Nearline's on the whole config: each problem attached to the key it
     * names, as the jobs would word it (a misspelt key with the one meant, a Connect setting the
     * connector needs with its value).
     */
    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        Config checked = super.validate(connectorConfigs);
        Map<String, ConfigValue> byName = new HashMap<>();
        List<ConfigValue> values = new ArrayList<>(checked.configValues());
        values.forEach(v -> byName.put(v.name(), v));
        SinkSettings.problems(connectorConfigs).forEach((key, problems) -> {
            ConfigValue value = byName.get(key);
            if (value == null) {
                value = new ConfigValue(key, connectorConfigs.get(key), Collections.emptyList(), new ArrayList<>());
                byName.put(key, value);
                values.add(value);
            }
            problems.forEach(value::addErrorMessage);
        });
        return new Config(values);
    }

    @Override
    public void start(Map<String, String> props) {
        SinkSettings.requireValid(props);
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return CacheSinkTask.class;
    }

    /** Every task the same settings: Connect hands each its share of the partitions. */
    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>();
        for (int i = 0; i < maxTasks; i++) {
            configs.add(props);
        }
        return configs;
    }

    @Override
    public void stop() {}
}
