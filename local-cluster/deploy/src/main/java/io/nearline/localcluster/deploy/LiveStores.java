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
        if (!store.equals(cluster.store())) {
            throw new ClusterException("--store " + store + ": the cluster's cache is " + cluster.store() + " ("
                    + cluster.dir().resolve(ClusterFile.NAME) + "); pass --store " + cluster.store());
        }
        return CacheStores.open(Config.of(cluster.jobSettings()));
    }
}
