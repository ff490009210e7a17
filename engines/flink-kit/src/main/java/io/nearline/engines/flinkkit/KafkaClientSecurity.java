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

import io.nearline.common.config.Config;
import io.nearline.common.config.KafkaSecurity;
import java.util.Properties;

/** A job's Kafka client security ({@code kafka.security.*}) as the Kafka connector's builders take it. */
public final class KafkaClientSecurity {

    private KafkaClientSecurity() {}

    /**
     * The security properties for every source and sink of the job, secrets as references: each Kafka
     * client resolves them where it is made (the tasks, the JobManager's enumerators and committers)
     * (KafkaSecurity#clientPropertiesByReference), so the job graph holds no password.
     */
    public static Properties of(Config config) {
        Properties p = new Properties();
        p.putAll(KafkaSecurity.from(config).clientPropertiesByReference());
        return p;
    }
}
