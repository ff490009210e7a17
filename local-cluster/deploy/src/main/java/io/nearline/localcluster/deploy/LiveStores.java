package io.nearline.localcluster.deploy;

import io.nearline.common.config.Config;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import io.nearline.localcluster.cluster.ClusterException;
import io.nearline.localcluster.cluster.ClusterFile;

/** The live store of a cluster, opened with the settings its jobs get: what check and dump read. */
public final class LiveStores {

    private LiveStores() {}

    public static CacheStore open(String store, ClusterFile cluster) {
        if (!"couchbase".equals(store)) {
            throw new ClusterException("--store must be couchbase (the cluster's cache), got " + store);
        }
        return CacheStores.open(Config.of(cluster.jobSettings()));
    }
}
