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
package io.nearline.localcluster.samzarunner;

import io.nearline.common.config.Config;
import io.nearline.feedtrackingjoin.core.JoinMetrics;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.feedtrackingjoin.samza.JoinApp;
import io.nearline.localcluster.joinreplay.JoinReplay;
import io.nearline.localcluster.joinreplay.ReplayJoinOptions;
import io.nearline.localcluster.kit.options.LocalRunOptions;
import io.nearline.localcluster.kit.runs.LocalRuns;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.samza.runtime.LocalApplicationRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code replay join --engine samza}: the broker in its own JVM, and the real app on Samza's local
 * runner. Samza has no bounded Kafka input, so the replay says where each input partition ends;
 * each task ends its partitions there, flushes everything, and reports
 * itself drained; then the app is stopped.
 */
@Command(
        name = "replay-join",
        mixinStandardHelpOptions = true,
        description = "Replays tracking events through the feed-tracking-join app on Samza and writes its outputs.")
public final class SamzaJoinReplay extends SamzaEngine implements Callable<Integer>, JoinReplay.Engine {

    @Mixin
    ReplayJoinOptions options;

    @Override
    public Integer call() throws Exception {
        return JoinReplay.run(options, this);
    }

    @Override
    LocalRunOptions run() {
        return options.run;
    }

    @Override
    public void run(
            Config config, JoinSettings settings, int partitions, Path work, Map<String, Map<Integer, Long>> ends)
            throws Exception {
        LocalApplicationRunner runner = SamzaLocal.start(
                new JoinApp(ends), SamzaLocal.config("tracking-join.properties", options.run, config, work));
        try {
            LocalRuns.await(
                    "tasks drained",
                    () -> SamzaLocal.METRICS.count(JoinMetrics.TASKS_DRAINED),
                    partitions,
                    Duration.ofMinutes(30),
                    () -> SamzaLocal.stopped(runner));
        } finally {
            SamzaLocal.stop(runner);
        }
    }
}
