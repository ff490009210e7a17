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
import io.nearline.localcluster.joinreplay.JoinConformanceSuite;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** The join's conformance suite through the real app on Samza's local runner: broker in its own JVM, RocksDB store. */
class SamzaJoinConformanceIT extends JoinConformanceSuite {

    @Override
    protected int replay(List<String> args) {
        List<String> all = new ArrayList<>(List.of("replay-join"));
        all.addAll(args);
        all.addAll(List.of("--kafka-jar", System.getProperty("nearline.kafka.jar")));
        // through the runner, as the front door runs it: a crash test starts the runner again as the job's process
        return new CommandLine(new SamzaRunner()).execute(all.toArray(String[]::new));
    }

    @Override
    protected boolean repeatsOutputsAfterACrash() {
        return true; // Samza 1.8 has no transactional producer
    }

    @Override
    protected InMemoryMetrics engineMetrics() {
        return SamzaLocal.METRICS;
    }
}
