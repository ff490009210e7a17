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

import io.nearline.jobs.cluster.ConnectRest;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.kit.processes.ConnectJmx;
import io.nearline.jobs.kit.processes.PluginZip;
import io.nearline.localcluster.kit.processes.ForkedConnect;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The local cluster's Kafka Connect worker: Apache Kafka's own {@code ConnectDistributed} from the
 * connect-worker module's jars, in distributed mode on the cluster's broker, its REST API and JMX on
 * the cluster's address, Debezium's PostgreSQL and MySQL connectors and Nearline's cache sink on its
 * plugin path (each in a class loader of its own). Also the few calls of Connect's REST API that deploys and {@code cluster status} make.
 */
public final class ConnectWorker {

    private ConnectWorker() {}

    public static Path lib(Path home) {
        return ForkedConnect.lib(home);
    }

    public static Path plugins(Path home) {
        return ForkedConnect.plugins(home);
    }

    /**
     * {@code DIR/connect/worker.properties} and its log configuration, the cache sink's plugin unpacked
     * into {@code DIR/connect/plugins} beside Debezium's on the plugin path; returns that directory.
     */
    static Path writeConfig(Path dir, String address, String kafka, Path home) throws IOException {
        Path conf = Files.createDirectories(dir.resolve("connect"));
        Path sink = PluginZip.unpack(ForkedConnect.sinkPluginZip(home), conf.resolve("plugins"));
        Files.write(
                conf.resolve("worker.properties"),
                ForkedConnect.workerProperties(address, ConnectRest.REST_PORT, kafka, plugins(home) + "," + sink),
                StandardCharsets.UTF_8);
        Files.write(conf.resolve("log4j2.properties"), ForkedConnect.logSettings(), StandardCharsets.UTF_8);
        return conf;
    }

    /**
     * {@code DIR/connect/secrets.properties}: each database's password as {@code KIND.password}, which a
     * connector's config names by reference ({@link #secret}) rather than by value, so that it is never
     * shown by Connect's REST API.
     */
    static void writeSecrets(Path dir, Map<String, Map<String, String>> databases) throws IOException {
        Path file = ConnectRest.secrets(dir);
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> db : databases.entrySet()) {
            String password = Files.readString(Path.of(db.getValue().get("password-file")), StandardCharsets.UTF_8)
                    .strip();
            lines.add(db.getKey() + ".password=" + password);
        }
        Files.write(file, lines, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    static List<String> daemon(String java, Path dir, Path home, Path conf, String address) {
        List<String> command = new ArrayList<>(List.of(java, Daemons.marker(dir), "-Xmx512m"));
        command.addAll(ConnectJmx.jvmOptions(address, ConnectRest.JMX_PORT));
        command.add("-javaagent:" + ForkedConnect.prometheusAgent(home) + "=" + address + ":"
                + ConnectRest.PROMETHEUS_PORT + ":" + ForkedConnect.prometheusRules(home));
        Path lib = lib(home);
        command.add("-Dlog4j2.configurationFile=" + conf.resolve("log4j2.properties"));
        command.addAll(List.of("-cp", lib + "/*", "org.apache.kafka.connect.cli.ConnectDistributed"));
        command.add(conf.resolve("worker.properties").toString());
        return command;
    }
}
