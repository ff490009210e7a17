package io.nearline.cacheupdater.flink;

import io.nearline.localcluster.replay.CliErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The Flink side's local runner ({@code nearline-cache-updater-flink.jar}): what the front door starts. */
@Command(name = "nearline-flink", mixinStandardHelpOptions = true, subcommands = {FlinkReplay.class, FlinkDemo.class})
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
