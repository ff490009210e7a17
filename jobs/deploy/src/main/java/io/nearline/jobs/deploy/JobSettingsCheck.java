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
package io.nearline.jobs.deploy;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cdcbootstrap.core.BootstrapSettings;
import io.nearline.common.config.Config;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import java.util.Map;

/**
 * What a Flink or Samza job checks of its settings as it starts, checked here before anything is
 * submitted, and in a dry run: a misspelt key or a bad value is one line naming it (exit 2) instead of
 * a submission that fails in the engine's client, or a dry run that shows it as if it would run.
 */
final class JobSettingsCheck {

    private JobSettingsCheck() {}

    /** Throws {@link io.nearline.common.config.ConfigException} naming every problem of {@code settings}. */
    static void check(Descriptor d, Map<String, String> settings) {
        Config config = Config.of(settings);
        switch (d.job()) {
            // the bootstrapper is the cache updater's job with the bootstrap on (BootstrapJob)
            case "cache-updater", "bootstrapper" -> CacheUpdaterSettings.validateJob(config, BootstrapSettings.DEF);
            case "tracking-join" -> JoinSettings.validateJob(config);
            default -> {
                // Debezium's connectors and the sink: Kafka Connect validates them; the verifier: VerifierDeploy
            }
        }
    }
}
