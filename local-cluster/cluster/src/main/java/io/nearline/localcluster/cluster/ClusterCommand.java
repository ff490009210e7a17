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

import io.nearline.jobs.cluster.ClusterCheck;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterInit;
import picocli.CommandLine.Command;

/** {@code nearline cluster up | status | down}: the whole stack on this machine, to deploy jobs to. */
@Command(
        name = "cluster",
        mixinStandardHelpOptions = true,
        description = {
            "A local cluster to deploy the jobs to: a Kafka broker and the networked cache (CouchbaseMock, reached "
                    + "through the real Couchbase SDK, or a redis-server with --store redis) always; a Flink "
                    + "standalone session cluster with --flink; YARN with --yarn; a source database (PostgreSQL with "
                    + "--postgres, MariaDB with --mysql) and a Kafka Connect worker with Debezium's connectors "
                    + "(--connect, implied by either database).",
            "%nEverything runs in a network namespace of its own, joined to this machine by a private link: no "
                    + "route out, nothing reachable from outside. Needs root and iproute2. Addresses are written to "
                    + "DIR/cluster.yaml; 'down' stops exactly the processes 'up' started.%n"
        },
        subcommands = {ClusterUp.class, ClusterStatus.class, ClusterDown.class, ClusterInit.class, ClusterCheck.class})
public final class ClusterCommand implements Runnable {

    public static final String DEFAULT_DIR = ClusterFile.DEFAULT_DIR;
    static final int KAFKA_PORT = 9092;
    static final int KAFKA_CONTROLLER_PORT = 9093;
    public static final int COUCHBASE_PORT = 8091;
    public static final int REDIS_PORT = 6379;

    @Override
    public void run() {
        System.out.println(
                "usage: nearline cluster up|status|down|init|check [--dir DIR | --cluster DIR] (see --help)");
    }

    static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
