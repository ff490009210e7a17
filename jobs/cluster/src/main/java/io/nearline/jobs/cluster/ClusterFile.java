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
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.jobs.kit.kafka.KafkaClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * {@code DIR/cluster.yaml}: every address of a local cluster (what deploys, publishes and checks
 * connect to) and the processes {@code cluster up} started, by name and pid.
 *
 * <p>The cache is {@code store} (couchbase or redis), its address in the section of that name: each
 * key there is the store's setting of the same name ({@code couchbase.bucket}, {@code redis.servers},
 * ...), except {@code password-file}, which becomes the password by reference to that file.
 *
 * <p>The {@code kafka:} section holds the brokers ({@code bootstrap-servers}) and, for a secured
 * Kafka, the client security settings without their {@code kafka.} prefix ({@code security.protocol},
 * {@code sasl.username}, {@code ssl.truststore}, ...; passwords by reference).
 *
 * <p>A cluster with a database as its source of truth has a section {@code postgres:} or {@code mysql:}
 * (its host, port, database, user, password file, JDBC URL and the table the demo writes; the key rule
 * of {@code SourceTable}), and a Kafka Connect worker's REST URL under {@code connect:}.
 *
 * <p>A cluster file written by {@code cluster init} for clusters Nearline did not start has addresses
 * only: no {@code network} and {@code processes} (null and empty here), and {@code packages} only
 * where given. {@code packages} is a URI (hdfs://..., file:///...); a file that names a
 * {@code package-dir} (a local directory, as earlier releases wrote) reads as its file:// URI. docs/clusters.md documents every key.
 */
public record ClusterFile(
        Path dir,
        String kafkaBootstrapServers,
        Map<String, String> kafkaSecurity,
        String store,
        Map<String, String> storeAddress,
        String flinkRestUrl,
        String flinkStateDir,
        String yarnRmAddress,
        String yarnWebUrl,
        Path yarnConfDir,
        String packages,
        String namespace,
        String address,
        String connectRestUrl,
        String zookeeper,
        Map<String, Map<String, String>> databases,
        Map<String, Long> processes) {

    /** The sections a database of the cluster may have: PostgreSQL, and MariaDB (read by MySQL's connector). */
    public static final List<String> DATABASES = List.of("postgres", "mysql");

    public static final String NAME = "cluster.yaml";

    /** Where the cluster commands look for a cluster when none is named. */
    public static final String DEFAULT_DIR = ".nearline/cluster";

    public static boolean exists(Path dir) {
        return Files.isRegularFile(dir.resolve(NAME));
    }

    /** The cluster in {@code dir}, or a {@link ClusterException} naming what to do when there is none. */
    public static ClusterFile read(Path dir) {
        Path file = dir.resolve(NAME);
        if (!Files.isRegularFile(file)) {
            throw new ClusterException("no cluster in " + dir + " (no " + NAME + "): start one with "
                    + "'bin/nearline cluster up --flink --dir " + dir + "' or pass --cluster DIR");
        }
        try {
            Map<String, Object> y = new Yaml(new SafeConstructor(new LoaderOptions()))
                    .load(Files.readString(file, StandardCharsets.UTF_8));
            Map<String, Object> kafka = section(y, "kafka");
            String store = String.valueOf(y.getOrDefault("store", "couchbase"));
            Map<String, String> storeAddress = new LinkedHashMap<>();
            section(y, store).forEach((k, v) -> storeAddress.put(k, String.valueOf(v)));
            Map<String, Object> flink = section(y, "flink");
            Map<String, Object> network = section(y, "network");
            Map<String, Object> yarn = section(y, "yarn");
            Map<String, Long> processes = new LinkedHashMap<>();
            section(y, "processes").forEach((k, v) -> processes.put(k, ((Number) v).longValue()));
            Map<String, Map<String, String>> databases = new LinkedHashMap<>();
            for (String db : DATABASES) {
                if (y.get(db) instanceof Map<?, ?> m) {
                    Map<String, String> d = new LinkedHashMap<>();
                    m.forEach((k, v) -> d.put(String.valueOf(k), String.valueOf(v)));
                    databases.put(db, d);
                }
            }
            return new ClusterFile(
                    dir,
                    (String) kafka.get("bootstrap-servers"),
                    kafkaSecurity(kafka),
                    store,
                    storeAddress,
                    (String) flink.get("rest-url"),
                    (String) flink.get("state-dir"),
                    (String) yarn.get("rm-address"),
                    (String) yarn.get("web-url"),
                    yarn.get("conf-dir") == null ? null : Path.of((String) yarn.get("conf-dir")),
                    packages(y),
                    (String) network.get("namespace"),
                    (String) network.get("address"),
                    (String) section(y, "connect").get("rest-url"),
                    (String) section(y, "zookeeper").get("quorum"),
                    databases,
                    processes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            throw new ClusterException(file + " is not a cluster file: " + e.getMessage());
        }
    }

    private static String packages(Map<String, Object> y) {
        if (y.get("packages") != null) {
            return (String) y.get("packages");
        }
        return y.get("package-dir") == null
                ? null
                : Path.of((String) y.get("package-dir"))
                        .toAbsolutePath()
                        .toUri()
                        .toString();
    }

    // every key of the kafka: section but the brokers is a client security setting, kafka.KEY
    private static Map<String, String> kafkaSecurity(Map<String, Object> kafka) {
        Map<String, String> security = new LinkedHashMap<>();
        kafka.forEach((k, v) -> {
            if (!k.equals("bootstrap-servers")) {
                security.put(k, String.valueOf(v));
            }
        });
        return security;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> section(Map<String, Object> y, String name) {
        Object s = y.get(name);
        return s instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    /** This cluster with its {@code kind} database section capturing {@code tables}. */
    public ClusterFile withTables(String kind, List<String> tables) {
        Map<String, String> section = new LinkedHashMap<>(database(kind));
        section.remove("table"); // the older one-table form
        section.put("tables", String.join(",", tables));
        Map<String, Map<String, String>> d = new LinkedHashMap<>(databases);
        d.put(kind, section);
        return with(d, processes);
    }

    /** This cluster with {@code name} now running as {@code pid} (a restarted daemon). */
    public ClusterFile withProcess(String name, long pid) {
        Map<String, Long> p = new LinkedHashMap<>(processes);
        p.put(name, pid);
        return with(databases, p);
    }

    private ClusterFile with(Map<String, Map<String, String>> databases, Map<String, Long> processes) {
        return new ClusterFile(
                dir,
                kafkaBootstrapServers,
                kafkaSecurity,
                store,
                storeAddress,
                flinkRestUrl,
                flinkStateDir,
                yarnRmAddress,
                yarnWebUrl,
                yarnConfDir,
                packages,
                namespace,
                address,
                connectRestUrl,
                zookeeper,
                databases,
                processes);
    }

    public void write() {
        Map<String, Object> y = new LinkedHashMap<>();
        Map<String, Object> kafka = new LinkedHashMap<>();
        kafka.put("bootstrap-servers", kafkaBootstrapServers);
        kafka.putAll(kafkaSecurity);
        y.put("kafka", kafka);
        y.put("store", store);
        y.put(store, new LinkedHashMap<>(storeAddress));
        Map<String, Object> flink = new LinkedHashMap<>();
        if (flinkRestUrl != null) {
            flink.put("rest-url", flinkRestUrl);
        }
        if (flinkStateDir != null) {
            flink.put("state-dir", flinkStateDir);
        }
        if (!flink.isEmpty()) {
            y.put("flink", flink);
        }
        if (yarnRmAddress != null) {
            Map<String, Object> yarn = new LinkedHashMap<>();
            yarn.put("rm-address", yarnRmAddress);
            yarn.put("web-url", yarnWebUrl);
            yarn.put("conf-dir", yarnConfDir.toString());
            y.put("yarn", yarn);
        }
        databases.forEach((db, section) -> y.put(db, new LinkedHashMap<>(section)));
        if (connectRestUrl != null) {
            y.put("connect", Map.of("rest-url", connectRestUrl));
        }
        if (zookeeper != null) {
            y.put("zookeeper", Map.of("quorum", zookeeper));
        }
        if (packages != null) {
            y.put("packages", packages);
        }
        if (namespace != null) { // a cluster Nearline started; a cluster file users write has addresses only
            y.put("network", Map.of("namespace", namespace, "address", address));
            y.put("processes", processes);
        }
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        try {
            Files.writeString(dir.resolve(NAME), new Yaml(options).dump(y), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The Prometheus server the cluster started ({@code cluster up --prometheus}), or null. */
    public String prometheusUrl() {
        return processes.containsKey("prometheus") ? ClusterPrometheus.url(address) : null;
    }

    /**
     * The ZooKeeper quorum Flink's high availability uses, or null when the cluster names none (a file
     * from before the key: the ZooKeeper its cluster started, if any).
     */
    public String zookeeperQuorum() {
        if (zookeeper != null) {
            return zookeeper;
        }
        return processes.containsKey("zookeeper") ? ZooKeeper.quorum(address) : null;
    }

    /** The Nearline settings that point a job at this cluster's broker and cache. */
    public Map<String, String> jobSettings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("kafka.bootstrap-servers", kafkaBootstrapServers);
        kafkaSecurity.forEach((key, value) -> s.put("kafka." + key, value));
        s.put("cache.store", store);
        storeAddress.forEach((key, value) -> {
            if (key.equals("password-file")) {
                s.put(store + ".password", "file:" + value);
            } else {
                s.put(store + "." + key, value);
            }
        });
        return s;
    }

    /**
     * The job settings a deploy gives: this cluster's, then the descriptor's, then the command line's.
     * A descriptor or {@code --set} that names another cache than the cluster runs is refused here,
     * before anything starts, rather than left to fail on the nodes.
     */
    public Map<String, String> jobSettings(Map<String, String> descriptor, Map<String, String> overrides) {
        Map<String, String> s = jobSettings();
        s.putAll(descriptor);
        s.putAll(overrides);
        databaseKeyRule(s);
        String wanted = s.get("cache.store");
        if (!store.equals(wanted) && s.keySet().stream().noneMatch(k -> k.startsWith(wanted + "."))) {
            throw new ClusterException("cache.store=" + wanted + " but the cluster in " + dir + " runs " + store
                    + " and the settings name no " + wanted + " server: deploy to a cluster with that cache "
                    + "('cluster up --store " + wanted + "'), or give its address (" + wanted + ".*)");
        }
        return s;
    }

    /**
     * A cache updater of Debezium's stream ({@code cdc.format=debezium-json}) on a cluster with one
     * database takes that database's tables and key rule ({@code tables}, {@code key-prefix},
     * {@code key-fields}, {@code table.T.*} of its section, as {@code cdc.debezium.*}), unless its
     * settings name tables themselves: the keys it writes are then the keys {@code check --source} and
     * {@code bootstrap run --from} read.
     */
    private void databaseKeyRule(Map<String, String> s) {
        if (!"debezium-json".equals(s.get("cdc.format"))
                || databases.size() != 1
                || s.containsKey("cdc.debezium.tables")) {
            return;
        }
        Map<String, String> section = databases.values().iterator().next();
        s.put("cdc.debezium.tables", String.join(",", tables(section)));
        section.forEach((key, value) -> {
            if (key.equals("key-prefix") || key.equals("key-fields") || key.startsWith("table.")) {
                s.putIfAbsent("cdc.debezium." + key, value);
            }
        });
    }

    /** The tables a database section lists ({@code tables}, comma-separated; {@code table} in older files). */
    public static List<String> tables(Map<String, String> section) {
        return List.copyOf(SourceDatabase.keysOf(section).tables().keySet());
    }

    /**
     * How the tools reach this cluster's broker: its address and client security. A security key that
     * is wrong is a {@link ClusterException} naming it.
     */
    public KafkaClient kafka() {
        try {
            return KafkaClient.from(Config.of(jobSettings()));
        } catch (ConfigException e) {
            throw new ClusterException(dir.resolve(NAME) + ", section kafka: " + e.getMessage());
        }
    }

    /** One line naming the cache and where it is, for status output. */
    public String describeStore() {
        Map<String, String> shown = new LinkedHashMap<>(storeAddress);
        shown.remove("password-file");
        return store + " " + shown;
    }

    public String yarnWeb() {
        if (yarnWebUrl == null) {
            throw new ClusterException("the cluster in " + dir + " has no YARN: start it with "
                    + "'bin/nearline cluster up --yarn --dir " + dir + "'");
        }
        return yarnWebUrl;
    }

    public String connectRest() {
        if (connectRestUrl == null) {
            throw new ClusterException("the cluster in " + dir + " has no Kafka Connect worker: start it with "
                    + "'bin/nearline cluster up --connect --dir " + dir + "' (--postgres and --mysql imply it)");
        }
        return connectRestUrl;
    }

    /** The kind of the one database section ({@code postgres} or {@code mysql}), or a {@link ClusterException}. */
    public String databaseKind() {
        if (databases.size() != 1) {
            throw new ClusterException("the cluster in " + dir + " has "
                    + (databases.isEmpty() ? "no database" : "the databases " + String.join(", ", databases.keySet()))
                    + ": name one with --source");
        }
        return databases.keySet().iterator().next();
    }

    /** The {@code postgres:} or {@code mysql:} section, or a {@link ClusterException} naming how to get one. */
    public Map<String, String> database(String kind) {
        Map<String, String> d = databases.get(kind);
        if (d == null) {
            throw new ClusterException("the cluster in " + dir + " has no " + kind + " database: start it with "
                    + "'bin/nearline cluster up --" + kind + " --dir " + dir + "'");
        }
        return d;
    }

    /** Where YARN localizes packages from, or a {@link ClusterException} naming how to say where. */
    public PackageStore packageStore() {
        if (packages == null) {
            throw new ClusterException(dir.resolve(NAME) + " names no packages location for YARN to localize "
                    + "packages from: 'cluster init --packages hdfs://NAMENODE:8020/DIR' (or file:///DIR on a disk "
                    + "every NodeManager shares)");
        }
        return new PackageStore(packages, yarnConfDir);
    }

    /**
     * Where Flink's checkpoints, savepoints and high-availability metadata go ({@code /savepoints},
     * {@code /flink-yarn/checkpoints}, {@code /flink-yarn/ha} under it): {@code flink.state-dir}, a
     * directory every JobManager and TaskManager reaches (hdfs://...); without it the cluster's directory
     * on this machine, which only the clusters Nearline starts share with their nodes.
     */
    public String flinkState() {
        String state = flinkStateDir != null
                ? flinkStateDir
                : "file://" + dir.toAbsolutePath().normalize();
        return state.endsWith("/") ? state.substring(0, state.length() - 1) : state;
    }

    public String flinkRest() {
        if (flinkRestUrl == null) {
            throw new ClusterException("the cluster in " + dir + " has no Flink session: start it with "
                    + "'bin/nearline cluster up --flink --dir " + dir + "'");
        }
        return flinkRestUrl;
    }
}
