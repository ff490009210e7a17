package io.nearline.localcluster.cluster;

/**
 * A cluster command that cannot go on, with the one line to show: bad input or an unreachable
 * cluster ({@code usage}, exit 2), or an operation the cluster refused or failed (exit 1).
 */
public class ClusterException extends RuntimeException {

    private final int exitCode;

    public ClusterException(String message) {
        this(message, 2);
    }

    public ClusterException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    public static ClusterException failed(String message) {
        return new ClusterException(message, 1);
    }

    public int exitCode() {
        return exitCode;
    }
}
