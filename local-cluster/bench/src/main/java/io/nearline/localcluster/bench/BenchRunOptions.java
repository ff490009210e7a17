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
package io.nearline.localcluster.bench;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options every bench shares (a picocli mixin): which engines run, the input topics' partitions
 * (each bench gives its own default), the job's parallelism, where the work goes, the JSON summary.
 */
final class BenchRunOptions {

    @Option(
            names = "--engine",
            split = ",",
            defaultValue = "flink,samza",
            description = "Engines, in order: flink, samza; bench cdc also connect, the cache sink connector in a "
                    + "Kafka Connect worker, on couchbase or redis (default: ${DEFAULT-VALUE}).")
    List<String> engines;

    @Option(names = "--partitions", description = "Partitions of each input topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--parallelism", defaultValue = "2", description = "Parallel tasks (default: ${DEFAULT-VALUE}).")
    int parallelism;

    @Option(
            names = "--work-dir",
            description = "Where the input, the brokers and the stores go (default: a temporary directory).")
    Path workDir;

    @Option(names = "--summary-json", paramLabel = "FILE", description = Benches.SUMMARY_JSON)
    Path summaryJson;

    @Option(
            names = "--rounds",
            defaultValue = "1",
            description = "With --against: Nearline and the alternative run back to back this many times on each "
                    + "engine; the figures and the ratio are then the medians, each round's kept under rounds "
                    + "(default: ${DEFAULT-VALUE}).")
    int rounds;

    /** {@code --rounds} is at least 1, and more than one only beside an alternative (exit 2 otherwise). */
    void requireRounds(String against) {
        Benches.positive("--rounds", rounds);
        if (rounds > 1 && against == null) {
            throw new IllegalArgumentException("--rounds alternates Nearline with an alternative: add --against");
        }
    }

    /** The engines asked for, each one of {@code allowed}; else the user's mistake, named. */
    void requireEngines(List<String> allowed) {
        for (String engine : engines) {
            if (!allowed.contains(engine)) {
                throw new IllegalArgumentException(
                        "--engine " + engine + " cannot run this bench: it takes " + String.join(", ", allowed));
            }
        }
    }

    BenchRunOptions(int defaultPartitions) {
        this.partitions = defaultPartitions;
    }

    /** What every bench hands an engine's runner: its own work directory, the partitions, the parallelism, the summary file. */
    List<String> runnerArgs(Path runDir, Path summary) {
        return List.of(
                "--work-dir",
                runDir.toString(),
                "--partitions",
                Integer.toString(partitions),
                "--parallelism",
                Integer.toString(parallelism),
                "--summary-json",
                summary.toString());
    }
}
