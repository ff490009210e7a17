package io.nearline.localcluster.kit;

import picocli.CommandLine;

/** A command that only groups subcommands ({@code bench}, {@code generate}, ...): run alone, it shows its usage. */
public abstract class CommandGroup implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
