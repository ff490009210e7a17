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
package io.nearline.localcluster.connectrunner;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.common.config.Config;
import io.nearline.localcluster.cdcreplay.CdcReplay;
import io.nearline.localcluster.cdcreplay.ReplayCdcOptions;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code replay cdc --engine connect}: the broker in a JVM of its own, and the shipped cache sink
 * plugin in a real Kafka Connect worker on it ({@link SinkRun}), until every event is written and
 * its position committed. {@code --kill-at} kills the worker -9 and starts another, which takes the
 * connector up from its committed positions.
 */
@Command(
        name = "replay-cdc",
        mixinStandardHelpOptions = true,
        description = "Replays change events through the cache sink connector in a Kafka Connect worker and writes "
                + "the final cache state.")
public final class ConnectReplay extends ConnectEngine implements Callable<Integer>, CdcReplay.Engine {

    @Mixin
    ReplayCdcOptions options;

    @Override
    public Integer call() throws Exception {
        requireNetworked(options.store);
        if (options.snapshot != null || options.run.jobProcess != null) {
            throw new IllegalArgumentException("--snapshot: the cache sink connector has no bootstrap; replay a "
                    + "snapshot with --engine flink or samza");
        }
        return CdcReplay.run(options, this);
    }

    @Override
    Path kafkaJar() {
        return options.run.kafkaJar;
    }

    @Override
    public boolean killsItsOwnProcess() {
        return true;
    }

    @Override
    public void run(Config config, CacheUpdaterSettings settings, long events, long bootstrapRecords, Path work)
            throws Exception {
        new SinkRun(config, settings, options.run, work).run(events);
    }
}
