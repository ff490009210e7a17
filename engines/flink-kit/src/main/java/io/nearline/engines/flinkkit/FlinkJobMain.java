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
import io.nearline.common.config.ConfigException;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The main of every Nearline Flink job: reads {@code --config FILE [--set key=value ...]}, defines
 * the job on the environment the engine gives (its parallelism, checkpointing and restart strategy
 * come from the cluster's configuration and the command line), and runs it. Bad configuration
 * fails before anything is submitted: one line naming the key and the fix, exit 2.
 */
public final class FlinkJobMain {

    /** Wires a job onto {@code env} from its checked configuration. */
    @FunctionalInterface
    public interface Definition {
        void define(StreamExecutionEnvironment env, Config config);
    }

    private FlinkJobMain() {}

    public static void run(String jobName, String[] args, Definition definition) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        try {
            Config config = Config.fromArgs(args);
            if (!env.getCheckpointConfig().isCheckpointingEnabled()) {
                throw new ConfigException("checkpointing is off, so input positions would never be committed: set "
                        + "'execution.checkpointing.interval' in the Flink configuration (or flink run "
                        + "-Dexecution.checkpointing.interval=5s).");
            }
            definition.define(env, config);
        } catch (ConfigException | IllegalArgumentException e) {
            System.err.println(jobName + ": " + e.getMessage());
            System.exit(2);
        }
        // the cluster's or the command line's pipeline.name wins (deploys name jobs so upgrades find them)
        String name = env.getConfiguration().getOptional(PipelineOptions.NAME).orElse(jobName);
        try {
            env.execute(name);
        } catch (Exception e) {
            throw new IllegalStateException(jobName + " failed", e);
        }
    }
}
