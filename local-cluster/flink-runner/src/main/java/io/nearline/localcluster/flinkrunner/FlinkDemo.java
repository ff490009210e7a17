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
package io.nearline.localcluster.flinkrunner;

import io.nearline.cacheupdater.flink.CacheUpdaterIo;
import io.nearline.cacheupdater.flink.CacheUpdaterJob;
import io.nearline.common.config.Config;
import io.nearline.localcluster.demo.Demo;
import io.nearline.localcluster.demo.DemoOptions;
import io.nearline.localcluster.kit.stores.LocalStores;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code demo --engine flink}: the broker in this JVM, the job on a local MiniCluster, stopped and restarted on cue. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "The local stack with the cache-updater job on Flink.")
public final class FlinkDemo extends FlinkEngine implements Callable<Integer>, Demo.Engine {

    @Mixin
    DemoOptions options;

    @Override
    public Integer call() throws Exception {
        return Demo.run(options, this);
    }

    /** Cancelling drops what was not yet checkpointed; the next start resumes from the committed offsets. */
    @Override
    public AutoCloseable start(Config config, Path work) throws Exception {
        StreamExecutionEnvironment env = FlinkLocal.env(options.run, config, FlinkLocal.Restarts.FLINKS_DEFAULT);
        CacheUpdaterJob.define(
                env,
                CacheUpdaterIo.kafka(config, CacheUpdaterIo.Inputs.BOTH, CacheUpdaterIo.Reading.LIVE)
                        .withCache(LocalStores.OPENER),
                config);
        JobClient job = env.executeAsync("nearline-cache-updater-demo");
        return () -> job.cancel().get(60, TimeUnit.SECONDS);
    }
}
