package io.nearline.localcluster.samza;

import io.nearline.localcluster.kit.CliErrors;
import io.nearline.localcluster.kit.CommandGroup;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The local runner of every Samza job ({@code nearline-samza-runner.jar}): what the front door starts. */
@Command(
        name = "nearline-samza-runner",
        mixinStandardHelpOptions = true,
        subcommands = {SamzaReplay.class, SamzaJoinReplay.class, SamzaDemo.class})
public final class SamzaRunner extends CommandGroup {

    public static void main(String[] args) {
        System.exit(CliErrors.install(new CommandLine(new SamzaRunner())).execute(args));
    }
}
