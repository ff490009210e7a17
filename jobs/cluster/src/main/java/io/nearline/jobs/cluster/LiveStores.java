/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.nearline.jobs.cluster;

import io.nearline.common.config.Config;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;

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
