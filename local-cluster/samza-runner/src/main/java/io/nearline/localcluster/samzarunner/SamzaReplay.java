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

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.samza.CacheUpdaterApp;
import io.nearline.cdcbootstrap.core.BootstrapSettings;
import io.nearline.common.config.Config;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.cdcreplay.CdcReplay;
import io.nearline.localcluster.cdcreplay.ReplayCdcOptions;
import io.nearline.localcluster.kit.options.LocalRunOptions;
import io.nearline.localcluster.kit.runs.LocalRuns;
import io.nearline.localcluster.kit.stores.LocalStores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.samza.runtime.LocalApplicationRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code replay cdc --engine samza}: the broker in its own JVM, and the real app on Samza's local
 * application runner until every event and bootstrap record is done (Samza has no bounded Kafka
 * input), then stopped.
 */
@Command(
        name = "replay-cdc",
        mixinStandardHelpOptions = true,
        description = "Replays change events through the cache-updater app on Samza and writes the final cache state.")
public final class SamzaReplay extends SamzaEngine implements Callable<Integer>, CdcReplay.Engine {

    private static final Duration LIMIT = Duration.ofMinutes(30);

    @Mixin
    ReplayCdcOptions options;

    @Override
    public Integer call() throws Exception {
        return CdcReplay.run(options, this);
    }

    @Override
    LocalRunOptions run() {
        return options.run;
    }

    @Override
    public void run(Config config, CacheUpdaterSettings settings, long events, long bootstrapRecords, Path work)
            throws Exception {
        boolean withBootstrap = bootstrapRecords != 0;
        Config run = config.withOverrides(Map.of("bootstrap.enabled", Boolean.toString(withBootstrap)));
        Map<String, Map<Integer, Long>> ends = new HashMap<>();
        if (events == CdcReplay.UNCOUNTED) { // the job's process in a crash test: read to where the topics end now
            ends.put(settings.cdcTopic(), KafkaTopics.endOffsets(settings.bootstrapServers(), settings.cdcTopic()));
            if (withBootstrap) {
                String topic = BootstrapSettings.from(config).topic();
                ends.put(topic, KafkaTopics.endOffsets(settings.bootstrapServers(), topic));
            }
        }
        LocalApplicationRunner runner = SamzaLocal.start(
                new CacheUpdaterApp(LocalStores.OPENER),
                SamzaLocal.config("cache-updater.properties", options.run, run, work));
        try {
            if (events == CdcReplay.UNCOUNTED) {
                LocalRuns.await(
                        "input records processed",
                        () -> InputPositions.processed(ends),
                        InputPositions.total(ends),
                        LIMIT,
                        () -> SamzaLocal.stopped(runner));
                return;
            }
            LocalRuns.await(
                    "events written",
                    () -> CdcReplay.eventsDone(SamzaLocal.METRICS),
                    events,
                    LIMIT,
                    () -> SamzaLocal.stopped(runner));
            LocalRuns.await(
                    "bootstrap records",
                    () -> CdcReplay.bootstrapDone(SamzaLocal.METRICS),
                    bootstrapRecords,
                    LIMIT,
                    () -> SamzaLocal.stopped(runner));
        } finally {
            SamzaLocal.stop(runner);
        }
    }
}
