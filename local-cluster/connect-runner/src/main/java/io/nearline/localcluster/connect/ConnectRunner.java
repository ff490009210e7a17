package io.nearline.localcluster.connect;

import io.nearline.localcluster.kit.CliErrors;
import io.nearline.localcluster.kit.CommandGroup;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The local runner of the cache sink connector ({@code nearline-connect-runner.jar}): what the front door starts. */
@Command(
        name = "nearline-connect-runner",
        mixinStandardHelpOptions = true,
        subcommands = {ConnectReplay.class})
public final class ConnectRunner extends CommandGroup {

    public static void main(String[] args) {
        System.exit(CliErrors.install(new CommandLine(new ConnectRunner())).execute(args));
    }
}
