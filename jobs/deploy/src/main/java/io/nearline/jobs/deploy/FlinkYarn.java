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
package io.nearline.jobs.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.FlinkRest;
import io.nearline.jobs.cluster.YarnRest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Flink's YARN application mode: each job its own Flink cluster in YARN containers, submitted with
 * Flink's client ({@code run -t yarn-application}) from {@code local-cluster/flink-yarn/target/lib}
 * (Flink 2.2.0's YARN side with Hadoop 3.4.3's client), which also ships those jars to the containers.
 * The job's Flink REST API is reached where the application master listens.
 */
public final class FlinkYarn {

    private FlinkYarn() {}

    public static Path lib(Path home) {
        return home.resolve("local-cluster/flink-yarn/target/lib");
    }

    /**
     * The application's Flink REST API: where its master listens (YARN's proxy takes no POST, which
     * stopping with a savepoint needs). The master advertises its host's name: a testbed node's is its
     * address; the local cluster's one node is this machine, whose name is not known in the cluster's
     * namespace, at the cluster's address.
     */
    public static String rest(ClusterFile cluster, YarnRest.App app) {
        int colon = app.amRpcAddress().lastIndexOf(':');
        String host = app.amRpcAddress().substring(0, colon);
        String port = app.amRpcAddress().substring(colon + 1);
        return "http://" + (host.matches("\\d+\\.\\d+\\.\\d+\\.\\d+") ? host : cluster.address()) + ":" + port;
    }

    /**
     * The config the client reads and ships: the jobs' expected settings (jobs/flink-conf/config.yaml),
     * the Java 17 options every Flink JVM needs, memory, and what application mode needs here.
     */
    static void writeClientConfig(Path conf, ClusterFile cluster, Path home) {
        try {
            Files.createDirectories(conf);
            String expected = Files.readString(home.resolve("jobs/flink-conf/config.yaml"), StandardCharsets.UTF_8);
            String config = String.join(
                    "\n",
                    "# Written by 'nearline deploy': the settings of jobs/flink-conf/config.yaml, then YARN's.",
                    expected.strip(),
                    "",
                    "env.java.opts.all: " + String.join(" ", FlinkRest.JAVA_17_OPTS),
                    "jobmanager.memory.process.size: 1024m",
                    "taskmanager.memory.process.size: 1728m",
                    "taskmanager.memory.managed.fraction: 0.2",
                    "taskmanager.numberOfTaskSlots: 2",
                    // no flink-dist on Maven Central: the YARN module's jar stands in under its name
                    "yarn.flink-dist-jar: file://" + lib(home).resolve("flink-dist-2.2.0.jar"),
                    // the user jar on the system classpath too breaks the Kafka connector's class loading
                    "yarn.classpath.include-user-jar: DISABLED",
                    "yarn.application-attempts: 4",
                    "state.checkpoints.dir: " + cluster.flinkState() + "/flink-yarn/checkpoints",
                    "state.savepoints.dir: " + cluster.flinkState() + "/savepoints",
                    providedLib(cluster, home)
                            .map(lib -> "yarn.provided.lib.dirs: " + lib)
                            .orElse(""),
                    highAvailability(cluster),
                    "");
            Files.writeString(conf.resolve("config.yaml"), config, StandardCharsets.UTF_8);
            String log = String.join(
                    "\n",
                    "rootLogger.level = INFO",
                    "rootLogger.appenderRef.main.ref = Main",
                    "appender.main.name = Main",
                    "appender.main.type = File",
                    "appender.main.fileName = ${sys:log.file}",
                    "appender.main.layout.type = PatternLayout",
                    "appender.main.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n",
                    "");
            Files.writeString(conf.resolve("log4j.properties"), log, StandardCharsets.UTF_8); // shipped to containers
            FlinkRest.writeClientLog(conf);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Where containers localize Flink's libraries from, when the cluster keeps packages on a distributed
     * file system: the lib directory, uploaded once per content ({@link #uploadLib}). YARN caches such
     * public files per node, so the next application's containers start without fetching them again.
     * Flink accepts only remote directories here; with {@code file://} packages the client ships the lib
     * directory with each application, as before.
     */
    static Optional<String> providedLib(ClusterFile cluster, Path home) {
        return remotePackages(cluster) ? Optional.of(cluster.packageStore().target(lib(home))) : Optional.empty();
    }

    /** Uploads Flink's libraries where {@link #providedLib} names them, unless they are there. */
    static void uploadLib(ClusterFile cluster, Path home) {
        if (remotePackages(cluster)) {
            cluster.packageStore().put(lib(home)); // names them by content itself: no second digest first
        }
    }

    private static boolean remotePackages(ClusterFile cluster) {
        return cluster.packages() != null && cluster.packageStore().remote();
    }

    /**
     * ZooKeeper high availability where the cluster runs a ZooKeeper (the testbed): the next application
     * attempt after a JobManager dies restores the job from its last checkpoint. Without it the attempt
     * starts the job again with no state from the consumer group's offsets, and the Kafka transactions
     * of the last checkpoint are never committed: their outputs are lost. The storage directory is under
     * the cluster's Flink state directory, which every node reaches.
     */
    private static String highAvailability(ClusterFile cluster) {
        String quorum = cluster.zookeeperQuorum();
        if (quorum == null) {
            return "";
        }
        return String.join(
                "\n",
                "high-availability.type: zookeeper",
                "high-availability.zookeeper.quorum: " + quorum,
                "high-availability.storageDir: " + cluster.flinkState() + "/flink-yarn/ha");
    }

    /** The running Flink job of that name in a YARN application: the application id and the job id. */
    public record Running(String appId, String jobId, String rest) {}

    public static Optional<Running> running(ClusterFile cluster, String name) {
        for (YarnRest.App app : YarnRest.apps(cluster.yarnWeb())) {
            if (!app.type().equals("Apache Flink") || !app.state().equals("RUNNING")) {
                continue;
            }
            String rest = rest(cluster, app);
            for (JsonNode job : jobs(rest)) {
                if (job.path("name").asText().equals(name)
                        && job.path("state").asText().equals("RUNNING")) {
                    return Optional.of(new Running(app.id(), job.path("jid").asText(), rest));
                }
            }
        }
        return Optional.empty();
    }

    /** The jobs of a Flink application on YARN (none while it is still starting). */
    public static List<JsonNode> jobs(String rest) {
        try {
            return FlinkRest.get(rest, "/jobs/overview").path("jobs").findParents("jid").stream()
                    .collect(Collectors.toList());
        } catch (ClusterException e) {
            return List.of();
        }
    }
}
