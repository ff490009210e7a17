package io.nearline.localcluster.flink;

import io.nearline.localcluster.kit.CliErrors;
import io.nearline.localcluster.kit.CommandGroup;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The local runner of every Flink job ({@code nearline-flink-runner.jar}): what the front door starts. */
@Command(
        name = "nearline-flink-runner",
        mixinStandardHelpOptions = true,
        subcommands = {FlinkReplay.class, FlinkJoinReplay.class, FlinkDemo.class})
public final class FlinkRunner extends CommandGroup {

    public static void main(String[] args) {
        System.exit(CliErrors.install(new CommandLine(new FlinkRunner())).execute(args));
    }
}
