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

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.jobs.kit.console.CliErrors;
import io.nearline.localcluster.cdcreplay.CdcConformanceSuite;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** The conformance suite through the real app on Samza's local runner: broker in its own JVM, RocksDB store. */
class SamzaConformanceIT extends CdcConformanceSuite {

    @Override
    protected int replay(List<String> args) {
        List<String> all = new ArrayList<>(List.of("replay-cdc"));
        all.addAll(args);
        all.addAll(List.of("--kafka-jar", System.getProperty("nearline.kafka.jar")));
        return CliErrors.install(new CommandLine(new SamzaRunner())).execute(all.toArray(String[]::new));
    }

    @Override
    protected InMemoryMetrics engineMetrics() {
        return SamzaLocal.METRICS;
    }
}
