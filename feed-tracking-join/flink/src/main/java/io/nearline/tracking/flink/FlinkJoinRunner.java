package io.nearline.tracking.flink;

import io.nearline.localcluster.replay.CliErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The Flink side's local runner ({@code nearline-tracking-join-flink.jar}): what the front door starts. */
@Command(name = "nearline-tracking-join-flink", mixinStandardHelpOptions = true, subcommands = {FlinkJoinReplay.class})
public final class FlinkJoinRunner implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(CliErrors.install(new CommandLine(new FlinkJoinRunner())).execute(args));
    }
}
