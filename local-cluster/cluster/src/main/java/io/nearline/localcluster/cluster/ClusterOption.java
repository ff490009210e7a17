package io.nearline.localcluster.cluster;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --cluster DIR}: the local cluster a command works on (its {@code cluster.yaml}). */
public final class ClusterOption {

    @Option(
            names = "--cluster",
            defaultValue = ClusterCommand.DEFAULT_DIR,
            paramLabel = "DIR",
            description = "The cluster (default: ${DEFAULT-VALUE}).")
    Path dir;

    public ClusterFile read() {
        return ClusterFile.read(dir.toAbsolutePath().normalize());
    }
}
