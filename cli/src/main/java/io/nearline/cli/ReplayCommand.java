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

import io.nearline.common.testkit.Utf8Lines;
import io.nearline.jobs.kit.console.CommandGroup;
import io.nearline.jobs.kit.processes.Home;
import io.nearline.localcluster.cdcreplay.ReplayCdcOptions;
import io.nearline.localcluster.joinreplay.ReplayJoinOptions;
import io.nearline.localcluster.kit.options.EngineOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code nearline replay ...}: replays captured streams through the real jobs on one machine. */
@Command(
        name = "replay",
        mixinStandardHelpOptions = true,
        description = "Replay captured streams through the real jobs on this machine.",
        subcommands = {ReplayCommand.Cdc.class, ReplayCommand.Join.class, CommandLine.HelpCommand.class})
public final class ReplayCommand extends CommandGroup {

    /** Every input there and UTF-8, before the engine's process starts (it would say so only in its log). */
    private static void readable(CommandLine.Model.CommandSpec spec, List<Path> files) {
        for (Path file : files) {
            if (!Files.isReadable(file)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "cannot read " + file);
            }
            Utf8Lines.check(file);
        }
    }

    /** {@code nearline replay cdc --engine flink|samza ...}. */
    @Command(
            name = "cdc",
            mixinStandardHelpOptions = true,
            description = {
                "Replay change events (JSON lines) through the cache-updater job and write the final cache state.",
                "%nStarts an embedded Kafka broker, creates the topics, sends the events (one key's events share a "
                        + "partition and keep the file's order), runs the real job on the chosen engine until every "
                        + "event is consumed, then writes the state sorted by key and the dead letters. Bad lines "
                        + "are dead-lettered with a reason and the run goes on.%n"
            })
    public static final class Cdc implements Callable<Integer> {

        @Mixin
        EngineOption engine;

        @Mixin
        ReplayCdcOptions options;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            List<Path> files = new ArrayList<>(options.events);
            if (options.snapshot != null) {
                files.add(options.snapshot);
            }
            readable(spec, files);
            return Home.runOnEngine(engine.name, "replay-cdc", spec, options.run.kafkaJar != null);
        }
    }

    /** {@code nearline replay join --engine flink|samza ...}. */
    @Command(
            name = "join",
            mixinStandardHelpOptions = true,
            description = {
                "Replay feed tracking events (JSON lines) through the feed-tracking-join job and write its outputs.",
                "%nStarts an embedded Kafka broker, creates the topics, sends the fragments and broker events (a "
                        + "request's events share a partition number on both topics and keep each file's order), "
                        + "runs the real job on the chosen engine over everything sent, flushes every pending "
                        + "request at the end, then writes DIR/joined.jsonl, orphans.jsonl, late.jsonl and "
                        + "dead-letters.jsonl, each sorted, and a summary. Bad lines are dead-lettered with a "
                        + "reason and the run goes on.%n"
            })
    public static final class Join implements Callable<Integer> {

        @Mixin
        EngineOption engine;

        @Mixin
        ReplayJoinOptions options;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            readable(spec, List.of(options.index, options.broker));
            return Home.runOnEngine(engine.name, "replay-join", spec, options.run.kafkaJar != null);
        }
    }
}
