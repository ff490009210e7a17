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

import io.nearline.common.config.Config;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.feedtrackingjoin.flink.TrackingJoinIo;
import io.nearline.feedtrackingjoin.flink.TrackingJoinJob;
import io.nearline.localcluster.joinreplay.JoinReplay;
import io.nearline.localcluster.joinreplay.ReplayJoinOptions;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code replay join --engine flink}: the embedded broker in this JVM, and the real job on a local
 * MiniCluster (RocksDB state backend) with its sources bounded at the input's end: at the end the
 * watermark reaches the end of time and every pending request is flushed.
 */
@Command(
        name = "replay-join",
        mixinStandardHelpOptions = true,
        description = "Replays tracking events through the feed-tracking-join job on Flink and writes its outputs.")
public final class FlinkJoinReplay extends FlinkEngine implements Callable<Integer>, JoinReplay.Engine {

    @Mixin
    ReplayJoinOptions options;

    @Override
    public Integer call() throws Exception {
        return JoinReplay.run(options, this);
    }

    @Override
    public void run(
            Config config, JoinSettings settings, int partitions, Path work, Map<String, Map<Integer, Long>> ends)
            throws Exception {
        StreamExecutionEnvironment env = FlinkLocal.joinEnv(options.run, config, work);
        TrackingJoinJob.define(env, TrackingJoinIo.kafka(config, ends), settings);
        env.execute("nearline-tracking-join-replay");
    }
}
