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
package io.nearline.cli;

import io.nearline.jobs.kit.console.CommandGroup;
import io.nearline.localcluster.joinreference.TrackingGenerator;
import io.nearline.localcluster.kit.options.SeedOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nearline generate ...}: synthetic input streams for replays and benchmarks. */
@Command(
        name = "generate",
        mixinStandardHelpOptions = true,
        description = "Generate synthetic input streams.",
        subcommands = {GenerateCommand.Tracking.class, CommandLine.HelpCommand.class})
public final class GenerateCommand extends CommandGroup {

    @Command(
            name = "tracking",
            mixinStandardHelpOptions = true,
            description = {
                "Generate feed tracking traffic: index-node fragments and broker events as JSON lines, each "
                        + "stream in arrival order, with independent delays (broker before or after the fragments), "
                        + "dropped and duplicated fragments, lost broker events, and a few fragments repeated much later."
            })
    public static final class Tracking implements Callable<Integer> {

        @Option(
                names = "--requests",
                defaultValue = "10000",
                description = "Feed requests (default: ${DEFAULT-VALUE}).")
        int requests;

        @Option(names = "--nodes", defaultValue = "32", description = "Index nodes (default: ${DEFAULT-VALUE}).")
        int nodes;

        @Option(
                names = "--max-fanout",
                defaultValue = "16",
                description = "Largest fan-out of a request (default: ${DEFAULT-VALUE}).")
        int maxFanout;

        @Option(
                names = "--drop",
                defaultValue = "0.02",
                description = "Share of fragments never sent (default: ${DEFAULT-VALUE}).")
        double drop;

        @Option(
                names = "--duplicate",
                defaultValue = "0.02",
                description = "Share of fragments sent twice (default: ${DEFAULT-VALUE}).")
        double duplicate;

        @Option(
                names = "--lost-broker",
                defaultValue = "0.01",
                description = "Share of broker events never sent (default: ${DEFAULT-VALUE}).")
        double lostBroker;

        @Option(
                names = "--max-delay-ms",
                defaultValue = "500",
                description = "Largest delivery delay (default: ${DEFAULT-VALUE}).")
        long maxDelay;

        @Option(
                names = "--late",
                defaultValue = "0.001",
                description =
                        "Share of fragments sent once more, --late-delay-ms after the others (default: ${DEFAULT-VALUE}).")
        double late;

        @Option(
                names = "--late-delay-ms",
                defaultValue = "30000",
                description =
                        "How much later those repeats come: beyond the join's allowed lateness (default: ${DEFAULT-VALUE}).")
        long lateDelay;

        @Mixin
        SeedOption seed;

        @Option(names = "--out-dir", required = true, description = "Where index.jsonl and broker.jsonl go.")
        Path outDir;

        @Override
        public Integer call() throws Exception {
            Files.createDirectories(outDir);
            TrackingGenerator.Written w = new TrackingGenerator(
                            requests,
                            nodes,
                            maxFanout,
                            drop,
                            duplicate,
                            lostBroker,
                            maxDelay,
                            late,
                            lateDelay,
                            seed.value)
                    .write(outDir.resolve("index.jsonl"), outDir.resolve("broker.jsonl"));
            System.out.printf(
                    "generate tracking: %,d requests -> %,d index fragments (%s), %,d broker events (%s)%n",
                    requests,
                    w.fragments(),
                    outDir.resolve("index.jsonl"),
                    w.brokerEvents(),
                    outDir.resolve("broker.jsonl"));
            return 0;
        }
    }
}
