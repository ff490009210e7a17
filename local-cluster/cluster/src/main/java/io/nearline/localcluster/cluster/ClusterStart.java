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
import io.nearline.common.testkit.RedisServerProcess;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterPrometheus;
import io.nearline.jobs.cluster.ConnectRest;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.FlinkRest;
import io.nearline.jobs.cluster.YarnRest;
import io.nearline.jobs.cluster.ZooKeeper;
import io.nearline.jobs.kit.processes.Home;
import io.nearline.localcluster.kit.processes.ForkedConnect;
import io.nearline.localcluster.kit.processes.ForkedRedis;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Starts a cluster: its network, Kafka and the cache, then Flink and YARN when asked for. The testbed
 * starts the same on its bridge, with a NodeManager per LXC instance (the hooks below).
 */
public abstract class ClusterStart implements Callable<Integer> {

    protected Path dir;

    /** The cluster's directory. */
    protected abstract Path where();

    /** Why this machine cannot run the cluster, or null. */
    protected String unavailableReason() {
        return PrivateNetwork.unavailableReason();
    }

    protected ClusterNetwork network() {
        return PrivateNetwork.of(dir);
    }

    /** YARN settings beyond the single-node defaults. */
    protected Map<String, String> yarnSettings() {
        return Map.of();
    }

    /**
     * Starts the NodeManager(s), adding each to {@code pids}; returns how many must register. Here one,
     * in the namespace, with the cluster's own configuration.
     */
    protected int startNodeManagers(ClusterNetwork net, String java, Path lib, Path conf, Map<String, Long> pids) {
        pids.put(
                "nodemanager",
                Daemons.start(dir, "nodemanager", net.wrap(YarnCluster.daemon(java, dir, lib, conf, true))));
        return 1;
    }

    /** Whether a Flink standalone session cluster starts too. */
    protected abstract boolean flink();

    /** Whether YARN starts too. */
    protected abstract boolean yarn();

    /**
     * Whether a ZooKeeper starts with YARN, for Flink's high availability: with it a Flink job whose
     * JobManager dies comes back from its last checkpoint; without, it starts again with no state.
     */
    protected boolean zookeeper() {
        return false;
    }

    /** The source databases the cluster runs. */
    protected List<ClusterDatabase> databases() {
        return List.of();
    }

    /** Whether a Kafka Connect worker starts too. */
    protected boolean connect() {
        return false;
    }

    /** Whether Debian's Prometheus server starts too, scraping what the cluster runs. */
    protected boolean prometheus() {
        return false;
    }

    /**
     * Processes this kind of cluster runs besides the common ones, by name: their commands, started
     * last, stopped with the cluster (none here).
     */
    protected Map<String, List<String>> moreDaemons(Path home) {
        return Map.of();
    }

    /** The cache the cluster runs: couchbase or redis. */
    protected String store() {
        return "couchbase";
    }

    /** How the broker takes clients. */
    protected KafkaSecurity.Protocol kafkaSecurity() {
        return KafkaSecurity.Protocol.PLAINTEXT;
    }

    /** What the command calls itself: cluster or testbed. */
    protected String kind() {
        return "cluster";
    }

    // what one start has learnt so far; written to the cluster file after every step
    private Path home;
    private ClusterNetwork net;
    private final Map<String, Long> pids = new LinkedHashMap<>();
    private long started;
    private String java;
    private String kafka = "";
    private Map<String, String> kafkaKeys = Map.of();
    private Map<String, String> storeAddress = new LinkedHashMap<>();
    private String rest;
    private Yarn yarn;
    private String connectRest;
    private final Map<String, Map<String, String>> databaseSections = new LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        String unavailable = unavailableReason();
        if (unavailable != null) {
            throw new ClusterException(unavailable);
        }
        dir = where();
        home = Home.dir();
        checkNotUpAndBuilt();
        Files.createDirectories(dir);
        net = network();
        started = System.nanoTime();
        net.create();
        try {
            java = Home.java();
            startKafkaAndCache(); // together; the rest after them
            List<String> prometheus = prometheus() ? LocalPrometheus.prepare(dir, home, net.serviceAddress()) : null;
            startDatabases();
            if (connect()) {
                startConnect();
            }
            if (flink()) {
                startFlink();
            }
            if (yarn()) {
                startYarn();
            }
            if (prometheus != null) {
                startPrometheus(prometheus);
            }
            moreDaemons(home).forEach((name, command) -> pids.put(name, Daemons.start(dir, name, net.wrap(command))));
            writeFile();
            System.out.printf(
                    "%s up in %s (%.0f s): addresses in %s%n",
                    kind(), dir, ClusterCommand.seconds(started), dir.resolve(ClusterFile.NAME));
            // the cache updater where this cluster runs it: a Flink session, else the Connect sink
            String descriptor = !flink() && connect() && !store().equals("rocksdb")
                    ? "cache-updater-connect.yaml"
                    : "cache-updater-flink-session.yaml";
            System.out.println("  deploy:   bin/nearline deploy jobs/deploy/" + descriptor + " --cluster " + dir);
            System.out.println("  stop:     bin/nearline " + kind() + " down --dir " + dir);
            return 0;
        } catch (RuntimeException | IOException e) {
            Daemons.stop(dir, pids, Duration.ofSeconds(10));
            Daemons.stopContainers(dir, Duration.ofSeconds(10));
            net.delete();
            throw e;
        }
    }

    /** No cluster of ours is up in the directory, and every jar it starts is built. */
    private void checkNotUpAndBuilt() {
        if (ClusterFile.exists(dir)) {
            ClusterFile old = ClusterFile.read(dir);
            if (old.processes().values().stream().anyMatch(pid -> Daemons.alive(pid, dir))) {
                throw new ClusterException("a cluster is already up in " + dir + ": 'bin/nearline cluster status --dir "
                        + dir + "', or take it down first");
            }
        }
        if (kafkaSecurity() != KafkaSecurity.Protocol.PLAINTEXT && connect()) {
            throw new ClusterException("--kafka-security with a Kafka Connect worker (--connect, --postgres, "
                    + "--mysql) is not supported yet: the worker and Debezium's connectors do not get the client "
                    + "settings; leave one of them out");
        }
        if (!List.of("couchbase", "redis").contains(store())) {
            throw new ClusterException("--store must be couchbase or redis, got " + store());
        }
        if (prometheus() && LocalPrometheus.unavailableReason().isPresent()) {
            throw new ClusterException(
                    "--prometheus: " + LocalPrometheus.unavailableReason().get());
        }
        if (store().equals("redis") && RedisServerProcess.unavailableReason().isPresent()) {
            throw new ClusterException(
                    "--store redis: " + RedisServerProcess.unavailableReason().get());
        }
        List<Path> needed = new ArrayList<>(List.of(Home.kafkaJar(home)));
        if (store().equals("couchbase")) {
            needed.add(Home.couchbaseJar(home));
        }
        if (flink()) {
            needed.add(FlinkRest.lib(home));
        }
        if (connect()) {
            needed.add(ConnectWorker.lib(home));
            needed.add(ConnectWorker.plugins(home));
            needed.add(ForkedConnect.sinkPluginZip(home));
            needed.add(ForkedConnect.prometheusAgent(home));
        }
        for (ClusterDatabase db : databases()) {
            db.unavailableReason().ifPresent(why -> {
                throw new ClusterException("--" + db.kind() + ": " + why);
            });
        }
        if (yarn()) {
            needed.add(YarnRest.lib(home));
        }
        for (Path p : needed) {
            if (!Files.exists(p)) {
                throw new ClusterException(p + " is missing: build with ./mvnw package -DskipTests");
            }
        }
    }

    private void startKafkaAndCache() throws IOException {
        String host = net.serviceAddress();
        List<String> args = new ArrayList<>(List.of(
                "--host",
                host,
                "--port",
                "" + ClusterCommand.KAFKA_PORT,
                "--controller-port",
                "" + ClusterCommand.KAFKA_CONTROLLER_PORT));
        if (kafkaSecurity() != KafkaSecurity.Protocol.PLAINTEXT) {
            args.addAll(List.of(
                    "--security",
                    LocalKafkaSecurity.brokerFile(dir, host, kafkaSecurity()).toString()));
            kafkaKeys = LocalKafkaSecurity.clusterFileKeys(dir, kafkaSecurity());
        }
        args.addAll(List.of("--detached", dir.resolve("kafka").toString()));
        pids.put("kafka", start("kafka", "-Xmx512m", Home.kafkaJar(home), args));
        if (store().equals("redis")) {
            startRedis(host);
        } else {
            startCouchbase(host);
        }
        writeFile(); // so that 'down' finds them if the rest fails
        kafka = awaitReadyLine("kafka", "BOOTSTRAP_SERVERS=", Duration.ofSeconds(90));
        step(started, "kafka", kafka + " (" + KafkaSecurity.PROTOCOL.type().format(kafkaSecurity()) + ")");
        if (store().equals("redis")) {
            String address = host + ":" + ClusterCommand.REDIS_PORT;
            Daemons.await(dir, "redis", pids.get("redis"), Duration.ofSeconds(60), () -> Daemons.listening(address));
            storeAddress.put("servers", "redis://" + address);
            loadRedisFunctions("redis://" + address);
            step(started, "redis", "redis://" + address + " (redis-server, user " + RedisServerProcess.USER + ")");
        } else {
            String couchbase = awaitReadyLine("couchbase", "COUCHBASE=", Duration.ofSeconds(60));
            storeAddress.put("connection-string", couchbase);
            step(started, "couchbase", couchbase + " (CouchbaseMock, bucket nearline)");
        }
    }

    private void startCouchbase(String host) throws IOException {
        Path password = dir.resolve("couchbase.password");
        if (!Files.exists(password)) {
            Files.writeString(password, HexFormat.of().formatHex(SecureRandom.getSeed(12)), StandardCharsets.UTF_8);
        }
        storeAddress.put("connection-string", "");
        storeAddress.put("bucket", "nearline");
        storeAddress.put("username", "nearline");
        storeAddress.put("password-file", password.toString());
        pids.put(
                "couchbase",
                start(
                        "couchbase",
                        "-Xmx384m",
                        Home.couchbaseJar(home),
                        List.of(
                                "--host",
                                host,
                                "--port",
                                "" + ClusterCommand.COUCHBASE_PORT,
                                "--bucket",
                                "nearline",
                                "--password-file",
                                password.toString())));
    }

    /** Debian's redis-server on the cluster's address: no persistence, an ACL user whose password is in a file. */
    private void startRedis(String host) throws IOException {
        Path redisDir = dir.resolve("redis");
        // redis-server rewrites its process title: the template keeps the cluster's marker in it, so
        // that 'down' (which ends only processes that carry the marker) recognises it as ours
        Path config = RedisServerProcess.writeConfig(
                redisDir,
                host,
                ClusterCommand.REDIS_PORT,
                ForkedRedis.STORE,
                List.of("proc-title-template \"{title} {listen-addr} " + Daemons.marker(dir) + " \""));
        storeAddress.put("servers", "");
        storeAddress.put("username", RedisServerProcess.USER);
        storeAddress.put(
                "password-file",
                redisDir.resolve(RedisServerProcess.PASSWORD_FILE).toString());
        String binary = RedisServerProcess.binary().orElseThrow().toString();
        pids.put("redis", Daemons.start(dir, "redis", net.wrap(List.of(binary, config.toString()))));
    }

    /**
     * The store's functions, loaded by the server's admin user: the jobs' user may only call them
     * (docs/redis.md#the-function-library).
     */
    private void loadRedisFunctions(String server) {
        RedisServerProcess.loadFunctions(dir.resolve("redis"), server, ForkedRedis.STORE);
    }

    /** A daemon of ours from its jar, in the cluster's network. */
    private long start(String name, String heap, Path jar, List<String> args) {
        List<String> command = new ArrayList<>(List.of(java, Daemons.marker(dir), heap, "-jar", jar.toString()));
        command.addAll(args);
        return Daemons.start(dir, name, net.wrap(command));
    }

    /** Waits for the line a daemon prints when it is ready, and returns what follows its prefix. */
    private String awaitReadyLine(String name, String prefix, Duration timeout) {
        Daemons.await(dir, name, pids.get(name), timeout, () -> Daemons.readyLine(dir, name, prefix)
                .isPresent());
        return Daemons.readyLine(dir, name, prefix).orElseThrow();
    }

    private void startDatabases() throws IOException {
        for (ClusterDatabase db : databases()) {
            String host = net.serviceAddress();
            pids.put(db.kind(), Daemons.start(dir, db.kind(), net.wrap(db.prepare(dir, host))));
            Map<String, String> section = db.section(dir, host);
            databaseSections.put(db.kind(), section);
            writeFile();
            Daemons.await(
                    dir,
                    db.kind(),
                    pids.get(db.kind()),
                    Duration.ofSeconds(90),
                    () -> ClusterDatabase.answers(section));
            try {
                db.createTables(section);
            } catch (java.sql.SQLException e) {
                throw new ClusterException(db.kind() + " refused the tables " + db.tables() + ": " + e.getMessage());
            }
            step(
                    started,
                    db.kind(),
                    section.get("jdbc-url") + " (user " + section.get("user") + ", tables " + section.get("tables")
                            + ")");
        }
    }

    private void startConnect() throws IOException {
        Path conf = ConnectWorker.writeConfig(dir, net.serviceAddress(), kafka, home);
        ConnectWorker.writeSecrets(dir, databaseSections);
        pids.put(
                "connect",
                Daemons.start(
                        dir, "connect", net.wrap(ConnectWorker.daemon(java, dir, home, conf, net.serviceAddress()))));
        connectRest = "http://" + net.serviceAddress() + ":" + ConnectRest.REST_PORT;
        writeFile();
        String url = connectRest;
        // the plugins are scanned before the REST API opens: listed means loaded
        Daemons.await(
                dir, "connect", pids.get("connect"), Duration.ofSeconds(180), () -> !ConnectRest.connectorClasses(url)
                        .isEmpty());
        List<String> plugins = ConnectRest.connectorClasses(url).stream()
                .filter(c -> c.startsWith("io.debezium") || c.startsWith("io.nearline"))
                .map(c -> c.substring(c.lastIndexOf('.') + 1))
                .toList();
        step(
                started,
                "connect",
                connectRest + " (Kafka Connect REST; plugins " + plugins + "; Prometheus http://" + net.serviceAddress()
                        + ":" + ConnectRest.PROMETHEUS_PORT + "/metrics)");
        ClusterPrometheus.targets(dir, "connect", List.of(net.serviceAddress() + ":" + ConnectRest.PROMETHEUS_PORT));
    }

    private void startFlink() throws IOException {
        Path lib = FlinkRest.lib(home);
        Path conf = FlinkSession.writeConfig(dir, net.serviceAddress(), home.resolve("jobs/flink-conf/config.yaml"));
        pids.put(
                "jobmanager",
                Daemons.start(dir, "jobmanager", net.wrap(FlinkSession.daemon(java, dir, lib, conf, false))));
        pids.put(
                "taskmanager",
                Daemons.start(dir, "taskmanager", net.wrap(FlinkSession.daemon(java, dir, lib, conf, true))));
        rest = "http://" + net.serviceAddress() + ":" + FlinkRest.REST_PORT;
        writeFile();
        String url = rest;
        Daemons.await(
                dir, "jobmanager", pids.get("jobmanager"), Duration.ofSeconds(120), () -> FlinkRest.reachable(url));
        Daemons.await(
                dir,
                "taskmanager",
                pids.get("taskmanager"),
                Duration.ofSeconds(120),
                () -> FlinkRest.taskManagers(url) > 0);
        step(started, "flink", rest + " (web UI and REST; one TaskManager, 4 slots)");
        // the reporter's ports (jobs/flink-conf/config.yaml): the JobManager took the first, the TaskManager the next
        ClusterPrometheus.targets(
                dir, "flink", List.of(net.serviceAddress() + ":9249", net.serviceAddress() + ":9250"));
    }

    private void startPrometheus(List<String> command) {
        pids.put("prometheus", Daemons.start(dir, "prometheus", net.wrap(command)));
        String address = net.serviceAddress() + ":" + ClusterPrometheus.PORT;
        Daemons.await(
                dir, "prometheus", pids.get("prometheus"), Duration.ofSeconds(60), () -> Daemons.listening(address));
        step(
                started,
                "prometheus",
                ClusterPrometheus.url(net.serviceAddress()) + " (Debian's Prometheus; the rules of jobs/monitoring; "
                        + "targets in " + dir.resolve("prometheus/targets") + ")");
    }

    private void startYarn() throws IOException {
        Path lib = YarnRest.lib(home);
        Path conf = YarnCluster.writeConfig(dir, net.serviceAddress(), net.serviceAddress(), yarnSettings());
        startHdfs(lib, conf);
        yarn = new Yarn(
                net.serviceAddress() + ":" + YarnRest.RM_PORT,
                "http://" + net.serviceAddress() + ":" + YarnRest.WEB_PORT,
                conf);
        if (zookeeper()) {
            startZooKeeper(lib);
        }
        pids.put(
                "resourcemanager",
                Daemons.start(dir, "resourcemanager", net.wrap(YarnCluster.daemon(java, dir, lib, conf, false))));
        int nodes = startNodeManagers(net, java, lib, conf, pids);
        writeFile();
        String web = yarn.web();
        Daemons.await(
                dir,
                "resourcemanager",
                pids.get("resourcemanager"),
                Duration.ofSeconds(120),
                () -> YarnRest.runningNodes(web) >= nodes);
        step(started, "yarn", web + " (ResourceManager " + yarn.rm() + ", " + nodes + " NodeManager(s))");
    }

    /** A NameNode and a DataNode: packages and Flink's libraries go there for YARN to localize. */
    private void startHdfs(Path lib, Path conf) {
        Path data = dir.resolve("yarn/hdfs").toAbsolutePath();
        if (!Hdfs.formatted(data)) {
            HostCommand.run(Hdfs.format(java, lib, conf), "formatting HDFS's NameNode");
        }
        pids.put("namenode", Daemons.start(dir, "namenode", net.wrap(Hdfs.daemon(java, dir, lib, conf, false))));
        pids.put("datanode", Daemons.start(dir, "datanode", net.wrap(Hdfs.daemon(java, dir, lib, conf, true))));
        writeFile();
        String address = net.serviceAddress();
        Daemons.await(dir, "namenode", pids.get("namenode"), Duration.ofSeconds(120), () -> Hdfs.ready(address));
        step(started, "hdfs", packages() + " (NameNode, one DataNode; packages for YARN to localize)");
    }

    /** Where deploys put packages: on the cluster's HDFS, which starts with YARN. */
    private String packages() {
        return pids.containsKey("namenode") ? Hdfs.uri(net.serviceAddress()) + "/nearline/packages" : null;
    }

    private void startZooKeeper(Path lib) {
        String quorum = ZooKeeper.quorum(net.serviceAddress());
        pids.put(
                "zookeeper",
                Daemons.start(dir, "zookeeper", net.wrap(LocalZooKeeper.daemon(java, dir, lib, net.serviceAddress()))));
        writeFile();
        Daemons.await(dir, "zookeeper", pids.get("zookeeper"), Duration.ofSeconds(60), () -> Daemons.listening(quorum));
        step(started, "zookeeper", quorum + " (Flink's high availability on YARN)");
    }

    /** The cluster file as far as the start has got, so that 'down' finds whatever was started. */
    private void writeFile() {
        new ClusterFile(
                        dir,
                        kafka,
                        kafkaKeys,
                        store(),
                        storeAddress,
                        rest,
                        null,
                        yarn == null ? null : yarn.rm(),
                        yarn == null ? null : yarn.web(),
                        yarn == null ? null : yarn.conf(),
                        packages(),
                        net.name(),
                        net.serviceAddress(),
                        connectRest,
                        pids.containsKey("zookeeper") ? ZooKeeper.quorum(net.serviceAddress()) : null,
                        databaseSections,
                        pids)
                .write();
    }

    private static void step(long started, String what, String where) {
        System.out.printf("  %-10s %s  (%.0f s)%n", what, where, ClusterCommand.seconds(started));
    }

    /** Where a cluster's YARN is: the ResourceManager's RPC address, its web UI and REST, the client config. */
    record Yarn(String rm, String web, Path conf) {}
}
