package io.nearline.localcluster.cluster;

import java.util.List;

/**
 * Where a local cluster's daemons listen, reachable from this machine only: a network namespace of
 * its own ({@link PrivateNetwork}, {@code cluster up}) or the testbed's bridge to its LXC instances.
 */
public interface ClusterNetwork {

    /** The namespace or bridge, by name. */
    String name();

    /** The address the cluster's services (Kafka, the cache, YARN's ResourceManager, Flink) listen on. */
    String serviceAddress();

    /** The command that runs {@code command} where the services run, in a session of its own. */
    List<String> wrap(List<String> command);

    void create();

    /** Removes it, and everything attached to it; nothing if it is gone already. */
    void delete();
}
