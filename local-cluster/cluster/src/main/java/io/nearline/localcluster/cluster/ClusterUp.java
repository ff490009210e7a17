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

import io.nearline.common.config.KafkaSecurity;
import io.nearline.jobs.cluster.DirOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "up", mixinStandardHelpOptions = true, description = "Start a local cluster in DIR.")
final class ClusterUp extends ClusterStart {

    @Mixin
    DirOption where;

    @Option(names = "--flink", description = "Also a Flink standalone session cluster (JobManager + one TaskManager).")
    boolean flink;

    @Option(
            names = "--yarn",
            description = "Also a single-node YARN (ResourceManager + NodeManager, Hadoop 3.4.3) for Samza jobs.")
    boolean yarn;

    @Option(
            names = "--store",
            defaultValue = "couchbase",
            description = "The cluster's cache: couchbase (CouchbaseMock) or redis (Debian's redis-server, an ACL "
                    + "user and its password in a file). Default: ${DEFAULT-VALUE}.")
    String store;

    @Option(
            names = "--postgres",
            description = "Also PostgreSQL (Debian's package; logical WAL) as the source of truth, with the tables "
                    + "items, orders (ids shared with items) and item_links (a two-column key); implies --connect.")
    boolean postgres;

    @Option(
            names = "--mysql",
            description = "Also MariaDB (Debian's package; row binlog), read by Debezium's MySQL connector, with "
                    + "the same three tables; implies --connect.")
    boolean mysql;

    @Option(
            names = "--connect",
            description = "Also a Kafka Connect worker (distributed mode) with Debezium's PostgreSQL and MySQL "
                    + "connectors on its plugin path.")
    boolean connect;

    @Option(
            names = "--prometheus",
            description = "Also Debian's Prometheus server on the cluster's address (port 9090), evaluating the "
                    + "shipped rules (jobs/monitoring) and scraping the Flink session's and the Connect worker's "
                    + "metrics, found through its own service discovery files.")
    boolean prometheus;

    @Option(
            names = "--kafka-security",
            defaultValue = "plaintext",
            paramLabel = "PROTOCOL",
            description = "How the broker takes clients: plaintext, ssl (TLS, a certificate made for the cluster), "
                    + "sasl-plaintext (user nearline, PLAIN or SCRAM) or sasl-ssl (both). The cluster file gets "
                    + "the client settings, so every job and command connects that way. Default: ${DEFAULT-VALUE}.")
    String kafkaSecurity;

    @Override
    protected String store() {
        return store;
    }

    @Override
    protected KafkaSecurity.Protocol kafkaSecurity() {
        return LocalKafkaSecurity.protocol(kafkaSecurity);
    }

    @Override
    protected List<ClusterDatabase> databases() {
        List<ClusterDatabase> out = new ArrayList<>();
        if (postgres) {
            out.add(ClusterDatabase.POSTGRES);
        }
        if (mysql) {
            out.add(ClusterDatabase.MYSQL);
        }
        return out;
    }

    @Override
    protected boolean prometheus() {
        return prometheus;
    }

    @Override
    protected boolean connect() {
        return connect || postgres || mysql;
    }

    @Override
    protected Path where() {
        return where.path();
    }

    @Override
    protected boolean flink() {
        return flink;
    }

    @Override
    protected boolean yarn() {
        return yarn;
    }
}
