package io.nearline.localcluster.kit;

import picocli.CommandLine.Option;

/** {@code --seed N} of every command that generates its input (a picocli mixin): the same seed, the same input. */
public final class SeedOption {

    @Option(
            names = "--seed",
            defaultValue = "1",
            description = "Seed of the generated input (default: ${DEFAULT-VALUE}).")
    public long value;
}
