package io.nearline.localcluster.cluster;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --dir DIR}: where a local cluster lives, for {@code cluster up | status | down}. */
public final class DirOption {

    @Option(
            names = "--dir",
            defaultValue = ClusterCommand.DEFAULT_DIR,
            paramLabel = "DIR",
            description = "Where the cluster lives (default: ${DEFAULT-VALUE}).")
    Path dir;

    public Path path() {
        return dir.toAbsolutePath().normalize();
    }
}
