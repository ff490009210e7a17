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

import io.nearline.jobs.kit.console.CommandGroup;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code nearline bench cdc}: the cache-updater job's throughput on each engine against the raw consume rate;
 * {@code nearline bench join}: the tracking join's throughput and join latency on each engine.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "End-to-end benchmarks of the jobs on this machine.",
        subcommands = {
            BenchCdcCommand.class,
            BenchJoinCommand.class,
            BenchBootstrapCommand.class,
            BenchReadCommand.class,
            CommandLine.HelpCommand.class
        })
public final class BenchCommand extends CommandGroup {}
