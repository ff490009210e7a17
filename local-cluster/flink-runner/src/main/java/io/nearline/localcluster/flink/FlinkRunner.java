package io.nearline.localcluster.flink;

import io.nearline.localcluster.kit.CliErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The local runner of every Flink job ({@code nearline-flink-runner.jar}): what the front door starts. */
@Command(
        name = "nearline-flink-runner",
        mixinStandardHelpOptions = true,
        subcommands = {FlinkReplay.class, FlinkJoinReplay.class, FlinkDemo.class})
public final class FlinkRunner implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(CliErrors.install(new CommandLine(new FlinkRunner())).execute(args));
    }
}
