package io.nearline.localcluster.kit;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --summary-json FILE} (a picocli mixin): the summary a command prints, also as one JSON object, for machines. */
public final class SummaryJsonOption {

    @Option(names = "--summary-json", paramLabel = "FILE", description = "Also write the summary as JSON.")
    public Path file;
}
