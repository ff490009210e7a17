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

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A Flink standalone session cluster from Maven Central's jars ({@code local-cluster/flink-cluster/target/lib}):
 * one JobManager (REST and web UI on port 8081) and one TaskManager, their memory sized by Flink's own
 * {@code BashJavaUtils} as Flink's scripts do, with the settings the Nearline jobs expect; and the
 * REST calls the {@code jobs} commands make.
 */
public final class FlinkSession {

    public static final int REST_PORT = 8081;

    /** What Flink's scripts pass to every JVM on Java 17 (its default {@code env.java.opts.all}). */
    public static final List<String> JAVA_17_OPTS = List.of(
            "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
            "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.text=ALL-UNNAMED",
            "--add-opens=java.base/java.time=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    private FlinkSession() {}

    public static Path lib(Path home) {
        return home.resolve("local-cluster/flink-cluster/target/lib");
    }

    /** The cluster's {@code conf/config.yaml}: the jobs' expected settings, bound to the cluster's address. */
    static Path writeConfig(Path dir, String address, Path jobsFlinkConf) throws IOException {
        Path conf = Files.createDirectories(dir.resolve("flink/conf"));
        String expected = Files.readString(jobsFlinkConf, StandardCharsets.UTF_8);
        String cluster = String.join(
                "\n",
                "# Written by 'nearline cluster up': the settings of jobs/flink-conf/config.yaml, then this cluster's.",
                expected.strip(),
                "",
                "jobmanager.rpc.address: " + address,
                "jobmanager.bind-host: " + address,
                "rest.address: " + address,
                "rest.bind-address: " + address,
                "rest.port: " + REST_PORT,
                "taskmanager.host: " + address,
                "taskmanager.bind-host: " + address,
                "taskmanager.numberOfTaskSlots: 4",
                "jobmanager.memory.process.size: 1024m",
                "taskmanager.memory.process.size: 1728m",
                "taskmanager.memory.managed.fraction: 0.2",
                "metrics.fetcher.update-interval: 2000",
                "state.checkpoints.dir: file://" + dir.toAbsolutePath().resolve("flink/checkpoints"),
                "state.savepoints.dir: file://" + dir.toAbsolutePath().resolve("savepoints"),
                "");
        Files.writeString(conf.resolve("config.yaml"), cluster);
        Files.writeString(
                conf.resolve("log4j.properties"),
                String.join(
                        "\n",
                        "rootLogger.level = INFO",
                        "rootLogger.appenderRef.main.ref = Main",
                        "appender.main.name = Main",
                        "appender.main.type = Console",
                        "appender.main.layout.type = PatternLayout",
                        "appender.main.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n",
                        ""));
        return conf;
    }

    /** The client's config for a session: where its REST endpoint is, and quiet logs. */
    public static void writeClientConfig(Path conf, String rest) {
        String hostPort = rest.substring(rest.indexOf("//") + 2);
        try {
            Files.createDirectories(conf);
            Files.writeString(
                    conf.resolve("config.yaml"),
                    "rest.address: " + hostPort.split(":")[0] + "\nrest.port: " + hostPort.split(":")[1] + "\n");
            writeClientLog(conf);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** log4j for Flink's client: warnings and errors on stderr. */
    public static void writeClientLog(Path conf) throws IOException {
        Files.writeString(
                conf.resolve("log4j-cli.properties"),
                "rootLogger.level = WARN\nrootLogger.appenderRef.e.ref = E\nappender.e.name = E\n"
                        + "appender.e.type = Console\nappender.e.target = SYSTEM_ERR\n"
                        + "appender.e.layout.type = PatternLayout\nappender.e.layout.pattern = %p %c{1} - %m%n\n"
                        // the line with the application id of a YARN submission
                        + "logger.yarn.name = org.apache.hadoop.yarn.client.api.impl.YarnClientImpl\n"
                        + "logger.yarn.level = INFO\n");
    }

    /** The JVM options and the {@code -D} settings Flink computes for a JobManager or TaskManager. */
    static List<List<String>> resources(String java, Path lib, Path conf, boolean taskManager) {
        List<String> command = List.of(
                java,
                "-cp",
                lib + "/*",
                "org.apache.flink.runtime.util.bash.BashJavaUtils",
                taskManager ? "GET_TM_RESOURCE_PARAMS" : "GET_JM_RESOURCE_PARAMS",
                "--configDir",
                conf.toString());
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            List<String> results = out.lines()
                    .filter(l -> l.startsWith("BASH_JAVA_UTILS_EXEC_RESULT:"))
                    .map(l -> l.substring("BASH_JAVA_UTILS_EXEC_RESULT:".length()))
                    .toList();
            if (results.size() < 2) {
                throw ClusterException.failed("Flink could not size its " + (taskManager ? "TaskManager" : "JobManager")
                        + " from " + conf + ":\n" + out);
            }
            List<String> jvm = Arrays.asList(results.get(0).strip().split(" "));
            List<String> dynamic = new ArrayList<>();
            for (String part : results.get(1).strip().split("-D ")) {
                if (!part.isBlank()) {
                    dynamic.add("-D");
                    dynamic.add(part.strip());
                }
            }
            return List.of(jvm, dynamic);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted");
        }
    }

    /** The command of a JobManager or TaskManager JVM. */
    static List<String> daemon(String java, Path dir, Path lib, Path conf, boolean taskManager) {
        List<List<String>> resources = resources(java, lib, conf, taskManager);
        List<String> command = new ArrayList<>(List.of(java, Daemons.marker(dir)));
        command.addAll(resources.get(0));
        command.addAll(JAVA_17_OPTS);
        command.add("-Dlog4j.configurationFile=file:" + conf.resolve("log4j.properties"));
        command.addAll(List.of("-cp", lib + "/*"));
        command.add(
                taskManager
                        ? "org.apache.flink.runtime.taskexecutor.TaskManagerRunner"
                        : "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint");
        command.addAll(List.of("--configDir", conf.toString()));
        command.addAll(resources.get(1));
        return command;
    }

    // ---- REST ----

    private static final String WHO = "the Flink cluster";

    public static JsonNode get(String rest, String path) {
        return JsonRest.call(WHO, rest, path, HttpRequest.newBuilder().GET(), Duration.ofSeconds(30));
    }

    public static JsonNode post(String rest, String path, Map<String, Object> body) {
        return JsonRest.call(
                WHO, rest, path, JsonRest.withBody(HttpRequest.newBuilder(), "POST", body), Duration.ofSeconds(30));
    }

    public static JsonNode patch(String rest, String path) {
        return JsonRest.call(
                WHO,
                rest,
                path,
                HttpRequest.newBuilder().method("PATCH", HttpRequest.BodyPublishers.noBody()),
                Duration.ofSeconds(30));
    }

    public static boolean reachable(String rest) {
        try {
            get(rest, "/overview");
            return true;
        } catch (ClusterException e) {
            return false;
        }
    }

    public static int taskManagers(String rest) {
        try {
            return get(rest, "/overview").path("taskmanagers").asInt();
        } catch (ClusterException e) {
            return 0;
        }
    }

    /** Sum over every subtask of every vertex of the metrics whose name ends with {@code name}. */
    public static long metricSum(String rest, String jobId, String name) {
        // Flink's REST shows a metric "events.written" of group "nearline" as
        // "<operator>.nearline.events_written"
        String suffix = "nearline." + name.replace('.', '_');
        long sum = 0;
        for (double v : metricAggregates(rest, jobId, id -> id.endsWith(suffix), "sum")) {
            sum += (long) v;
        }
        return sum;
    }

    /**
     * For each metric (by its REST id) that {@code metric} accepts, in each vertex, its aggregate over
     * the vertex's subtasks: {@code agg} is Flink's {@code sum}, {@code min}, {@code max} or {@code avg}.
     */
    public static List<Double> metricAggregates(String rest, String jobId, Predicate<String> metric, String agg) {
        List<Double> out = new ArrayList<>();
        for (JsonNode vertex : get(rest, "/jobs/" + jobId).path("vertices")) {
            String base = "/jobs/" + jobId + "/vertices/" + vertex.path("id").asText() + "/subtasks/metrics";
            List<String> ids = new ArrayList<>();
            for (JsonNode m : get(rest, base)) {
                if (metric.test(m.path("id").asText())) {
                    ids.add(m.path("id").asText());
                }
            }
            if (!ids.isEmpty()) {
                for (JsonNode m : get(rest, base + "?agg=" + agg + "&get=" + String.join(",", ids))) {
                    out.add(m.path(agg).asDouble());
                }
            }
        }
        return out;
    }
}
