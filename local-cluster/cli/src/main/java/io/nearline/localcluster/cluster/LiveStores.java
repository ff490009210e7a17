package io.nearline.localcluster.cluster;

import io.nearline.common.config.Config;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import java.nio.file.Path;

/** The live store of a cluster, opened with the settings its jobs get: what check and dump read. */
public final class LiveStores {

    private LiveStores() {}

    public static CacheStore open(String store, Path clusterDir) {
        if (!"couchbase".equals(store)) {
            throw new ClusterException("--store must be couchbase (the cluster's cache), got " + store);
        }
        return CacheStores.open(Config.of(
                ClusterFile.read(clusterDir.toAbsolutePath().normalize()).jobSettings()));
    }
}
