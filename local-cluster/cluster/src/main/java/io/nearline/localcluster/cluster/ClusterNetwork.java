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
