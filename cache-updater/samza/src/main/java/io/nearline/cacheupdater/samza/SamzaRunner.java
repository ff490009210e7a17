package io.nearline.cacheupdater.samza;

import io.nearline.localcluster.replay.CliErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The Samza side's local runner ({@code nearline-cache-updater-samza.jar}): what the front door starts. */
@Command(name = "nearline-samza", mixinStandardHelpOptions = true, subcommands = {SamzaReplay.class, SamzaDemo.class})
public final class SamzaRunner implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(CliErrors.install(new CommandLine(new SamzaRunner())).execute(args));
    }
}
