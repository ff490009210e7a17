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

import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.FlinkRest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Flink standalone session cluster from Maven Central's jars ({@code local-cluster/flink-cluster/target/lib}):
 * one JobManager (REST and web UI on port 8081) and one TaskManager, their memory sized by Flink's own
 * {@code BashJavaUtils} as Flink's scripts do, with the settings the Nearline jobs expect. Its clients'
 * side is {@link FlinkRest}.
 */
public final class FlinkSession {

    private FlinkSession() {}

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
                "rest.port: " + FlinkRest.REST_PORT,
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
        command.addAll(FlinkRest.JAVA_17_OPTS);
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
}
