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

/**
 * Settings every streaming job has, with the same name and meaning in each job's configuration.
 * Parallelism, checkpointing and restarts are not among them: they belong to the engine's own
 * configuration (Flink's {@code parallelism.default}, {@code execution.checkpointing.interval};
 * Samza's {@code job.container.count}, {@code task.commit.ms}).
 */
public final class JobKeys {

    private JobKeys() {}

    public static final ConfigKey<String> BOOTSTRAP_SERVERS = ConfigKey.required(
                    "kafka.bootstrap-servers",
                    ValueType.STRING,
                    "Kafka brokers the job reads its input from and writes its outputs and dead letters to (host:port,...). "
                            + "On Samza, give the same list to the Kafka system (systems.kafka.*.bootstrap.servers).")
            .checked(Check.notBlank());
}
