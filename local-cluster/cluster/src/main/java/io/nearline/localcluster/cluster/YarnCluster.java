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

import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.FlinkRest;
import io.nearline.jobs.cluster.YarnRest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A single-node YARN from Maven Central's Hadoop 3.4.3 jars ({@code local-cluster/yarn-cluster/target/lib}):
 * a ResourceManager and one NodeManager in the cluster's namespace, with a minimal capacity
 * scheduler. Its clients' side is {@link YarnRest}.
 */
public final class YarnCluster {

    private YarnCluster() {}

    /** core-site, hdfs-site, yarn-site, capacity-scheduler and log4j2 for the daemons and for clients. */
    static Path writeConfig(Path dir, String address) throws IOException {
        return writeConfig(dir, address, address, Map.of());
    }

    /**
     * The same for a NodeManager at {@code nodeAddress} (the ResourceManager at {@code rmAddress}), with
     * {@code more} settings on top.
     */
    public static Path writeConfig(Path dir, String rmAddress, String nodeAddress, Map<String, String> more)
            throws IOException {
        Path conf = Files.createDirectories(dir.resolve("yarn/conf"));
        Path data = dir.resolve("yarn").toAbsolutePath();
        // HDFS runs beside the ResourceManager: the default file system, as on a real cluster
        Files.writeString(
                conf.resolve("core-site.xml"),
                xml(Map.of(
                        "fs.defaultFS",
                        Hdfs.uri(rmAddress),
                        "hadoop.tmp.dir",
                        data.resolve("tmp").toString())));
        Files.writeString(conf.resolve("hdfs-site.xml"), xml(Hdfs.site(rmAddress, data.resolve("hdfs"))));
        Files.writeString(conf.resolve("yarn-site.xml"), xml(withMore(more, yarnSite(rmAddress, nodeAddress, data))));
        Files.writeString(
                conf.resolve("capacity-scheduler.xml"),
                xml(Map.of(
                        "yarn.scheduler.capacity.root.queues", "default",
                        "yarn.scheduler.capacity.root.default.capacity", "100",
                        "yarn.scheduler.capacity.root.default.maximum-capacity", "100",
                        "yarn.scheduler.capacity.maximum-am-resource-percent", "0.5")));
        Files.writeString(
                conf.resolve("log4j2.properties"),
                String.join(
                        "\n",
                        "rootLogger.level = INFO",
                        "rootLogger.appenderRef.c.ref = C",
                        "appender.c.name = C",
                        "appender.c.type = Console",
                        "appender.c.layout.type = PatternLayout",
                        "appender.c.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n",
                        ""));
        return conf;
    }

    /** The single-node settings of yarn-site.xml, before a caller's own. */
    private static Map<String, String> yarnSite(String rmAddress, String nodeAddress, Path data) {
        return Map.ofEntries(
                Map.entry("yarn.resourcemanager.hostname", rmAddress),
                Map.entry("yarn.resourcemanager.bind-host", rmAddress),
                Map.entry("yarn.nodemanager.hostname", nodeAddress),
                Map.entry("yarn.nodemanager.bind-host", nodeAddress),
                Map.entry("yarn.nodemanager.resource.memory-mb", "6144"),
                Map.entry("yarn.nodemanager.resource.cpu-vcores", "8"),
                Map.entry("yarn.scheduler.minimum-allocation-mb", "128"),
                // containers share this machine's memory with everything else here: no kills
                // for size
                Map.entry("yarn.nodemanager.vmem-check-enabled", "false"),
                Map.entry("yarn.nodemanager.pmem-check-enabled", "false"),
                Map.entry(
                        "yarn.nodemanager.local-dirs", data.resolve("nm-local").toString()),
                Map.entry(
                        "yarn.nodemanager.log-dirs", data.resolve("containers").toString()),
                Map.entry("yarn.nodemanager.env-whitelist", "JAVA_HOME,HADOOP_CONF_DIR,PATH"),
                Map.entry("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "99"),
                Map.entry("yarn.timeline-service.enabled", "false"),
                Map.entry("yarn.resourcemanager.am.max-attempts", "4"),
                Map.entry(
                        "yarn.resourcemanager.scheduler.class",
                        "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler"));
    }

    private static Map<String, String> withMore(Map<String, String> more, Map<String, String> base) {
        Map<String, String> all = new TreeMap<>(base);
        all.putAll(more);
        return all;
    }

    private static String xml(Map<String, String> properties) {
        StringBuilder b = new StringBuilder(
                "<?xml version=\"1.0\"?>\n<!-- written by 'nearline cluster up' -->\n<configuration>\n");
        new TreeMap<>(properties).forEach((k, v) -> b.append("  <property><name>")
                .append(k)
                .append("</name><value>")
                .append(v)
                .append("</value></property>\n"));
        return b.append("</configuration>\n").toString();
    }

    /** The command of the ResourceManager or the NodeManager JVM. */
    public static List<String> daemon(String java, Path dir, Path lib, Path conf, boolean nodeManager) {
        List<String> command = new ArrayList<>(List.of(
                "env",
                "JAVA_HOME=" + System.getProperty("java.home"),
                "HADOOP_CONF_DIR=" + conf,
                java,
                Daemons.marker(dir),
                "-Xmx512m"));
        command.addAll(FlinkRest.JAVA_17_OPTS); // Hadoop needs the same opens on Java 17
        command.add("-Dlog4j.configurationFile=" + conf.resolve("log4j2.properties"));
        command.addAll(List.of("-cp", conf + ":" + lib + "/*"));
        command.add(
                nodeManager
                        ? "org.apache.hadoop.yarn.server.nodemanager.NodeManager"
                        : "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager");
        return command;
    }
}
