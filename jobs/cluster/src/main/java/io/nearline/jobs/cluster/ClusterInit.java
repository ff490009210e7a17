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
import io.nearline.common.config.ConfigException;
import io.nearline.common.config.KafkaSecurity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code nearline cluster init}: a cluster file for clusters Nearline did not start, holding only
 * addresses (docs/clusters.md). Deploys, publishes, checks and dumps then work against them as they do
 * against a local cluster; {@code cluster check} probes each address first.
 */
@Command(
        name = "init",
        mixinStandardHelpOptions = true,
        description = {
            "Write DIR/cluster.yaml for clusters you run yourself: addresses only, no processes (docs/clusters.md).",
            "%nSecrets are given by reference (file:PATH or env:VAR), never in the file. Then "
                    + "'bin/nearline cluster check --cluster DIR' probes every address it names.%n"
        })
public final class ClusterInit implements Callable<Integer> {

    @Mixin
    DirOption where;

    @Option(names = "--kafka", required = true, paramLabel = "SERVERS", description = "Kafka bootstrap servers.")
    String kafka;

    @Option(
            names = "--kafka-security",
            paramLabel = "PROTOCOL",
            description = "How clients connect to Kafka: plaintext (default), ssl, sasl-plaintext or sasl-ssl.")
    String kafkaSecurity;

    @Option(
            names = "--kafka-sasl-mechanism",
            paramLabel = "MECHANISM",
            description = "With sasl-*: plain (default), scram-sha-256 or scram-sha-512.")
    String kafkaSaslMechanism;

    @Option(names = "--kafka-user", paramLabel = "NAME", description = "With sasl-*: the Kafka user.")
    String kafkaUser;

    @Option(
            names = "--kafka-password",
            paramLabel = "REF",
            description = "With sasl-*: the Kafka user's password by reference: file:PATH or env:VAR.")
    String kafkaPassword;

    @Option(
            names = "--kafka-truststore",
            paramLabel = "PATH",
            description = "With ssl or sasl-ssl: a PKCS12 (.p12) or JKS file of the certificates to trust (the "
                    + "brokers' CA), at this path on every machine a job or command runs on. Default: the JVM's.")
    String kafkaTruststore;

    @Option(names = "--kafka-truststore-password", paramLabel = "REF", description = "Its password by reference.")
    String kafkaTruststorePassword;

    @Option(
            names = "--kafka-keystore",
            paramLabel = "PATH",
            description = "Where the brokers ask for client certificates: a PKCS12 or JKS file with the client's key.")
    String kafkaKeystore;

    @Option(names = "--kafka-keystore-password", paramLabel = "REF", description = "Its password by reference.")
    String kafkaKeystorePassword;

    @Option(names = "--flink-rest", paramLabel = "URL", description = "A Flink session cluster's REST URL.")
    String flinkRest;

    @Option(
            names = "--flink-state",
            paramLabel = "URI",
            description = "Where Flink's checkpoints, savepoints and HA metadata go: a directory every JobManager and "
                    + "TaskManager reaches (hdfs://NAMENODE:8020/DIR). Default: this cluster file's directory, "
                    + "right only where the Flink nodes share this machine's disk.")
    String flinkState;

    @Option(
            names = "--yarn-conf",
            paramLabel = "DIR",
            description = "YARN's client configuration (HADOOP_CONF_DIR-style: yarn-site.xml).")
    Path yarnConf;

    @Option(
            names = "--packages",
            paramLabel = "URI",
            description = "Where packages go for YARN to localize: hdfs://NAMENODE:8020/DIR (through Hadoop's "
                    + "client, configured by --yarn-conf), or file:///DIR on a disk every NodeManager shares.")
    String packages;

    @Option(
            names = "--couchbase",
            paramLabel = "CONNECTION",
            description = "The cache: a Couchbase connection string (couchbase://host).")
    String couchbase;

    @Option(
            names = "--couchbase-bucket",
            paramLabel = "NAME",
            defaultValue = "nearline",
            description = "Default: ${DEFAULT-VALUE}.")
    String couchbaseBucket;

    @Option(
            names = "--couchbase-user",
            paramLabel = "NAME",
            defaultValue = "nearline",
            description = "Default: ${DEFAULT-VALUE}.")
    String couchbaseUser;

    @Option(
            names = "--couchbase-password",
            paramLabel = "REF",
            description = "The Couchbase user's password by reference: file:PATH or env:VAR.")
    String couchbasePassword;

    @Option(names = "--redis", paramLabel = "URIS", description = "The cache: Redis servers (redis://host:6379,...).")
    String redis;

    @Option(names = "--redis-user", paramLabel = "NAME", description = "The Redis ACL user, if any.")
    String redisUser;

    @Option(
            names = "--redis-password",
            paramLabel = "REF",
            description = "The Redis password by reference: file:PATH or env:VAR.")
    String redisPassword;

    @Option(names = "--connect-rest", paramLabel = "URL", description = "A Kafka Connect worker's REST URL.")
    String connectRest;

    @Option(
            names = "--database",
            paramLabel = "JDBC_URL",
            description = "The source of truth the caches mirror: jdbc:postgresql://HOST:PORT/DB or "
                    + "jdbc:mysql://HOST:PORT/DB (MariaDB too); its section is what check --source, bootstrap run "
                    + "--from and the Debezium deploys read.")
    String database;

    @Option(
            names = "--database-user",
            paramLabel = "NAME",
            description = "With --database: the user the tools log in as.")
    String databaseUser;

    @Option(
            names = "--database-password-file",
            paramLabel = "PATH",
            description = "With --database: a file holding that user's password (never written into the cluster file).")
    Path databasePasswordFile;

    @Option(
            names = "--tables",
            paramLabel = "SCHEMA.TABLE,...",
            description = "With --database: the tables the caches hold, as the connector names them (SCHEMA.TABLE; "
                    + "DB.TABLE on MariaDB), each keyed by its primary key; key rules per table go in the file "
                    + "(docs/debezium.md#many-tables).")
    String tables;

    @Option(
            names = "--zookeeper",
            paramLabel = "QUORUM",
            description = "ZooKeeper for Flink's high availability on YARN (host:2181,...): a JobManager that dies "
                    + "comes back from the job's last checkpoint.")
    String zookeeper;

    @Override
    public Integer call() throws Exception {
        if ((couchbase == null) == (redis == null)) {
            throw new ClusterException("name the cache: --couchbase CONNECTION or --redis URIS (one of them)");
        }
        Path dir = where.path();
        if (ClusterFile.exists(dir)) {
            throw new ClusterException(dir.resolve(ClusterFile.NAME) + " exists: choose another --dir, or remove it");
        }
        Map<String, String> store = new LinkedHashMap<>();
        if (couchbase != null) {
            store.put("connection-string", couchbase);
            store.put("bucket", couchbaseBucket);
            store.put("username", couchbaseUser);
            if (couchbasePassword != null) {
                store.put("password", reference("--couchbase-password", couchbasePassword));
            }
        } else {
            store.put("servers", redis);
            if (redisUser != null) {
                store.put("username", redisUser);
            }
            if (redisPassword != null) {
                store.put("password", reference("--redis-password", redisPassword));
            }
        }
        if (packages != null && !packages.matches("[a-z][a-z0-9+.-]*://.+")) {
            throw new ClusterException("--packages " + packages + " is not a URI: hdfs://NAMENODE:8020/DIR, or "
                    + "file:///DIR on a disk every NodeManager shares");
        }
        if (packages != null && !packages.startsWith("file:") && yarnConf == null) {
            throw new ClusterException("--packages " + packages + " needs --yarn-conf DIR: Hadoop's client reads "
                    + "the file system's settings (core-site.xml, hdfs-site.xml) from there");
        }
        Map<String, String> kafkaKeys = kafkaSecurity();
        String[] yarn = yarnConf == null ? new String[2] : YarnSite.resourceManager(yarnConf);
        Files.createDirectories(dir);
        new ClusterFile(
                        dir,
                        kafka,
                        kafkaKeys,
                        couchbase != null ? "couchbase" : "redis",
                        store,
                        flinkRest,
                        flinkState,
                        yarn[0],
                        yarn[1],
                        yarnConf == null ? null : yarnConf.toAbsolutePath(),
                        packages,
                        null,
                        null,
                        connectRest,
                        zookeeper,
                        databaseSection(),
                        Map.of())
                .write();
        System.out.println("cluster init: wrote " + dir.resolve(ClusterFile.NAME) + " (addresses only)");
        System.out.println("  check:  bin/nearline cluster check --cluster " + dir);
        return 0;
    }

    /** The database's section, by its kind ({@code postgres}, {@code mysql}), or none without --database. */
    private Map<String, Map<String, String>> databaseSection() {
        if (database == null) {
            if (tables != null || databaseUser != null) {
                throw new ClusterException("--tables and --database-user go with --database JDBC_URL");
            }
            return Map.of();
        }
        java.util.regex.Matcher url = java.util.regex.Pattern.compile(
                        "jdbc:(postgresql|mysql|mariadb)://([^:/]+):(\\d+)/([^?]+).*")
                .matcher(database);
        if (!url.matches()) {
            throw new ClusterException("--database " + database + ": give jdbc:postgresql://HOST:PORT/DB or "
                    + "jdbc:mysql://HOST:PORT/DB, the port included");
        }
        if (databaseUser == null || tables == null || tables.isBlank()) {
            throw new ClusterException("--database needs --database-user NAME and --tables SCHEMA.TABLE,... (the "
                    + "tables the caches hold)");
        }
        for (String table : ClusterFile.tables(Map.of("tables", tables))) {
            if (!table.matches("[^.]+\\.[^.]+")) {
                throw new ClusterException("--tables: '" + table + "' must be SCHEMA.TABLE (DB.TABLE on MariaDB), as "
                        + "the connector names it");
            }
        }
        Map<String, String> section = new LinkedHashMap<>();
        section.put("host", url.group(2));
        section.put("port", url.group(3));
        section.put("database", url.group(4));
        section.put("user", databaseUser);
        if (databasePasswordFile != null) {
            section.put("password-file", databasePasswordFile.toAbsolutePath().toString());
        }
        section.put("jdbc-url", database);
        section.put("tables", String.join(",", ClusterFile.tables(Map.of("tables", tables))));
        section.put("key-prefix", "");
        return Map.of(url.group(1).equals("postgresql") ? "postgres" : "mysql", section);
    }

    /**
     * The cluster file's client security keys (kafka.KEY without its prefix), checked as a job checks
     * them: a missing user, a password given inline or a truststore without TLS is refused here.
     */
    private Map<String, String> kafkaSecurity() {
        Map<String, String> keys = new LinkedHashMap<>();
        putIfGiven(keys, "security.protocol", kafkaSecurity);
        putIfGiven(keys, "sasl.mechanism", kafkaSaslMechanism);
        putIfGiven(keys, "sasl.username", kafkaUser);
        putIfGiven(keys, "sasl.password", reference("--kafka-password", kafkaPassword));
        putIfGiven(keys, "ssl.truststore", kafkaTruststore);
        putIfGiven(keys, "ssl.truststore-password", reference("--kafka-truststore-password", kafkaTruststorePassword));
        putIfGiven(keys, "ssl.keystore", kafkaKeystore);
        putIfGiven(keys, "ssl.keystore-password", reference("--kafka-keystore-password", kafkaKeystorePassword));
        Map<String, String> settings = new LinkedHashMap<>();
        keys.forEach((k, v) -> settings.put("kafka." + k, v));
        try {
            KafkaSecurity.from(Config.of(settings));
        } catch (ConfigException e) {
            throw new ClusterException("cluster init: " + e.getMessage());
        }
        return keys;
    }

    private static void putIfGiven(Map<String, String> keys, String key, String value) {
        if (value != null) {
            keys.put(key, value);
        }
    }

    private static String reference(String option, String value) {
        if (value == null) {
            return null;
        }
        if (!value.startsWith("file:") && !value.startsWith("env:")) {
            throw new ClusterException(option + " must be a reference, file:PATH or env:VAR: a password is never "
                    + "written into the cluster file");
        }
        return value;
    }
}
