package io.nearline.tracking.samza;

import io.nearline.localcluster.replay.CliErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The Samza side's local runner ({@code nearline-tracking-join-samza.jar}): what the front door starts. */
@Command(name = "nearline-tracking-join-samza", mixinStandardHelpOptions = true, subcommands = {SamzaJoinReplay.class})
public final class SamzaJoinRunner implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(CliErrors.install(new CommandLine(new SamzaJoinRunner())).execute(args));
    }
}
