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

import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.KafkaSecurity;
import java.util.HashMap;
import java.util.Map;
import org.apache.samza.config.Config;
import org.apache.samza.config.MapConfig;
import org.apache.samza.util.DefaultCoordinatorStreamConfigFactory;

/**
 * The config a YARN ApplicationMaster starts from, before it reads the job's whole config from the
 * coordinator stream: Samza's (the coordinator system's settings, the job's name and id) and the
 * job's Kafka client security, so that {@link NearlineKafkaSystemFactory} reaches a secured broker
 * from the first read. Only references travel, never a password. Name it in
 * {@code job.coordinatorstream.config.factory}.
 */
public class NearlineCoordinatorStreamConfigFactory extends DefaultCoordinatorStreamConfigFactory {

    @Override
    public Config buildCoordinatorStreamConfig(Config config) {
        Map<String, String> out = new HashMap<>(super.buildCoordinatorStreamConfig(config));
        for (ConfigKey<?> key : KafkaSecurity.DEF.keys()) {
            String value = config.get(key.name());
            if (value != null) {
                out.put(key.name(), value);
            }
        }
        return new MapConfig(out);
    }
}
