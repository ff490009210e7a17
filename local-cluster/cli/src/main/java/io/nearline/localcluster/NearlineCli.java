package io.nearline.localcluster;

import io.nearline.localcluster.replay.CliErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code bin/nearline}: the one front door to Nearline's local tools. */
@Command(
        name = "nearline",
        mixinStandardHelpOptions = true,
        version = "nearline 0.1.0-SNAPSHOT",
        description = "Keep caches and derived streams consistent with a source of truth, on Flink and Samza.",
        subcommands = {
            DemoCommand.class,
            ReplayCommand.class,
            CheckCommand.class,
            GenerateCommand.class,
            BenchCommand.class,
            RaceCommand.class,
            BootstrapCommand.class,
            CommandLine.HelpCommand.class
        })
public final class NearlineCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(CliErrors.install(new CommandLine(new NearlineCli())).execute(args));
    }
}
