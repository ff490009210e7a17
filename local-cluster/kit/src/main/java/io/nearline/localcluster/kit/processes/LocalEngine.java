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
package io.nearline.localcluster.kit.processes;

import io.nearline.common.metrics.InMemoryMetrics;
import java.io.IOException;
import java.nio.file.Path;

/** An engine as every local run (replay, demo, bench) sees it: its name, its counters, its broker. */
public interface LocalEngine {

    String name();

    /** The jobs' counters in this JVM, summed over tasks (reset at the start of each run). */
    InMemoryMetrics localMetrics();

    /** The broker of this run, wherever the engine needs it. */
    LocalBroker startBroker(Path dir) throws IOException;
}
