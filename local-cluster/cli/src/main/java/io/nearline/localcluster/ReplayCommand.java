package io.nearline.localcluster;

import io.nearline.cacheupdater.replay.ReplayCdcOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code nearline replay ...}: replays captured streams through the real jobs on one machine. */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Replay captured streams through the real jobs on this machine.",
        subcommands = {ReplayCommand.Cdc.class, CommandLine.HelpCommand.class})
public final class ReplayCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** {@code nearline replay cdc --engine flink|samza ...}. */
    @Command(name = "cdc", mixinStandardHelpOptions = true,
            description = {
                    "Replay change events (JSON lines) through the cache-updater job and write the final cache state.",
                    "%nStarts an embedded Kafka broker, creates the topics, sends the events (one key's events share a "
                            + "partition and keep the file's order), runs the real job on the chosen engine until every "
                            + "event is consumed, then writes the state sorted by key and the dead letters. Bad lines "
                            + "are dead-lettered with a reason and the run goes on.%n"})
    public static final class Cdc implements Callable<Integer> {

        @Option(names = "--engine", required = true, description = "flink or samza.")
        String engine;

        @Mixin
        ReplayCdcOptions options;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            if (!engine.equals("flink") && !engine.equals("samza")) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--engine must be flink or samza, got " + engine);
            }
            for (Path events : options.events) {
                if (!Files.isReadable(events)) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "cannot read --events " + events);
                }
            }
            Path jar = Home.engineJar(engine);
            List<String> command = Home.engineCommand(engine, "replay-cdc", spec, options.kafkaJar != null);
            return Home.run(command, jar);
        }
    }
}
