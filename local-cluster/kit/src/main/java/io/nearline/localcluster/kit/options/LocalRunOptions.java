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
package io.nearline.localcluster.kit.options;

import io.nearline.common.config.Config;
import io.nearline.jobs.kit.console.DurationConverter;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import picocli.CommandLine.Option;

/**
 * The options every local run shares ({@code replay cdc}, {@code replay join}, {@code demo}, the
 * benchmarks), in the front door and in each engine's runner: a picocli mixin.
 */
public final class LocalRunOptions {

    @Option(
            names = "--partitions",
            defaultValue = "4",
            description = "Partitions of each input topic (default: ${DEFAULT-VALUE}).")
    public int partitions;

    @Option(
            names = "--parallelism",
            defaultValue = "2",
            description = "Parallel tasks of the job: Flink's parallelism, Samza's container threads unless the job's "
                    + "config runs its tasks on the run loop thread (pool size 0) (default: ${DEFAULT-VALUE}).")
    public int parallelism;

    @Option(
            names = "--checkpoint-interval",
            defaultValue = "2s",
            converter = DurationConverter.class,
            description = "How often the job commits its input positions: Flink's checkpoint interval, Samza's "
                    + "task.commit.ms (default: ${DEFAULT-VALUE}).")
    public Duration checkpointInterval;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description =
                    "Job settings (.properties or .yaml); see docs/configuration.md. An engine's own keys pass through to it.")
    public Path config;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Overrides one setting; repeatable.")
    public Map<String, String> overrides = new LinkedHashMap<>();

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description =
                    "Where the broker's log and the job's state live (default: a new temporary directory, kept for inspection).")
    public Path workDir;

    @Option(names = "--summary-json", paramLabel = "FILE", description = "Also write the summary as JSON.")
    public Path summaryJson;

    @Option(
            names = "--kill-at",
            paramLabel = "F",
            description =
                    "Crash test: run the job in a process of its own, kill it -9 once a fraction F (0 < F < 1) of "
                            + "the input has been taken, and start it again from its last checkpoint (Flink) or commit (Samza).")
    public Double killAt;

    @Option(
            names = "--broker-restart-at",
            paramLabel = "F",
            description =
                    "Fault test: once a fraction F (0 < F < 1) of the input has been taken, stop the Kafka broker "
                            + "and start it again (same addresses, same data) under the running job.")
    public Double brokerRestartAt;

    /** Set in the job's own process of a crash test: run only the job, against these brokers. */
    @Option(names = "--job-process", hidden = true, paramLabel = "BROKERS")
    public String jobProcess;

    /** Set in the job's process started again after the kill: resume from the last retained checkpoint. */
    @Option(names = "--restore", hidden = true)
    public boolean restore;

    @Option(
            names = "--kafka-jar",
            hidden = true,
            description = "The broker jar, for engines that run it as its own JVM.")
    public Path kafkaJar;

    /** The configuration of a run: the file, then what the tool chose, then --set (last wins). */
    public Config jobConfig(Map<String, String> toolChoices) {
        Config base = config == null ? Config.empty() : Config.load(config);
        return base.withOverrides(toolChoices).withOverrides(overrides);
    }

    /** The work directory: the one given (created if needed), else a new temporary one. */
    public Path workDir(String prefix) throws IOException {
        return workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory(prefix);
    }

    /**
     * {@link #workDir}, handed to {@code check} first: when the check refuses the run, a temporary
     * directory it was given is removed again (nothing ran in it), and the refusal goes on.
     */
    public Path checkedWorkDir(String prefix, Consumer<Path> check) throws IOException {
        Path dir = workDir(prefix);
        try {
            check.accept(dir);
        } catch (RuntimeException refused) {
            if (workDir == null) {
                try {
                    Files.deleteIfExists(dir);
                } catch (DirectoryNotEmptyException e) {
                    // the check wrote into it: leave it as it is
                }
            }
            throw refused;
        }
        return dir;
    }

    /** Checks what can be checked before anything starts; a mistake is the user's (exit 2). */
    public void validate() {
        if (partitions < 1) {
            throw new IllegalArgumentException("--partitions must be at least 1, got " + partitions);
        }
        if (parallelism < 1) {
            throw new IllegalArgumentException("--parallelism must be at least 1, got " + parallelism);
        }
        if (checkpointInterval.isNegative() || checkpointInterval.isZero()) {
            throw new IllegalArgumentException("--checkpoint-interval must be > 0, got " + checkpointInterval);
        }
        if (killAt != null && !(killAt > 0 && killAt < 1)) {
            throw new IllegalArgumentException("--kill-at must be a fraction between 0 and 1, got " + killAt);
        }
        if (brokerRestartAt != null && !(brokerRestartAt > 0 && brokerRestartAt < 1)) {
            throw new IllegalArgumentException(
                    "--broker-restart-at must be a fraction between 0 and 1, got " + brokerRestartAt);
        }
        if (brokerRestartAt != null && killAt != null) {
            throw new IllegalArgumentException("--broker-restart-at and --kill-at: one fault per run");
        }
        if (config != null && !Files.isReadable(config)) {
            throw new IllegalArgumentException("--config " + config + ": cannot read the file");
        }
    }
}
