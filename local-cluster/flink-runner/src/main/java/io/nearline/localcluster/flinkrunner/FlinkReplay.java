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

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.flink.CacheUpdaterIo;
import io.nearline.cacheupdater.flink.CacheUpdaterJob;
import io.nearline.common.config.Config;
import io.nearline.localcluster.cdcreplay.CdcReplay;
import io.nearline.localcluster.cdcreplay.ReplayCdcOptions;
import io.nearline.localcluster.kit.stores.LocalStores;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code replay cdc --engine flink}: the embedded broker in this JVM, and the real job on a local
 * MiniCluster with its Kafka sources bounded to the topics' end at start, so the job ends by itself.
 */
@Command(
        name = "replay-cdc",
        mixinStandardHelpOptions = true,
        description = "Replays change events through the cache-updater job on Flink and writes the final cache state.")
public final class FlinkReplay extends FlinkEngine implements Callable<Integer>, CdcReplay.Engine {

    @Mixin
    ReplayCdcOptions options;

    @Override
    public Integer call() throws Exception {
        return CdcReplay.run(options, this);
    }

    @Override
    public void run(Config config, CacheUpdaterSettings settings, long events, long bootstrapRecords, Path work)
            throws Exception {
        StreamExecutionEnvironment env = FlinkLocal.env(options.run, config, FlinkLocal.Restarts.FAIL_AFTER_TWO, work);
        CacheUpdaterJob.define(
                env,
                CacheUpdaterIo.kafka(
                                config,
                                CacheUpdaterIo.Inputs.changes(bootstrapRecords != 0),
                                CacheUpdaterIo.Reading.TO_THE_END)
                        .withCache(LocalStores.OPENER),
                config);
        env.execute("nearline-cache-updater-replay");
    }

    @Override
    public void runLive(Config config, CacheUpdaterSettings settings, long events, Map<Integer, Long> ends, Path work)
            throws Exception {
        StreamExecutionEnvironment env = FlinkLocal.env(options.run, config, FlinkLocal.Restarts.FAIL_AFTER_TWO, work);
        CacheUpdaterJob.define(
                env, CacheUpdaterIo.kafkaChangesUpTo(config, ends).withCache(LocalStores.OPENER), config);
        env.execute("nearline-cache-updater-live");
    }
}
