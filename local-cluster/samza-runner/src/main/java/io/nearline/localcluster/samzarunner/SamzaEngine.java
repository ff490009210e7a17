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
import io.nearline.localcluster.kit.options.LocalRunOptions;
import io.nearline.localcluster.kit.processes.LocalBroker;
import io.nearline.localcluster.kit.processes.LocalEngine;
import java.io.IOException;
import java.nio.file.Path;

/** What every Samza runner command is as an engine: Samza, its mirrored counters, the broker in a JVM of its own. */
abstract class SamzaEngine implements LocalEngine {

    /** The command's run options (the broker jar among them). */
    abstract LocalRunOptions run();

    @Override
    public String name() {
        return "samza";
    }

    @Override
    public InMemoryMetrics localMetrics() {
        return SamzaLocal.METRICS;
    }

    @Override
    public LocalBroker startBroker(Path dir) throws IOException {
        return SamzaLocal.broker(run(), dir);
    }
}
