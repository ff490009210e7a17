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
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.FlinkRest;
import io.nearline.jobs.cluster.JsonRest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * HDFS beside YARN, as a real cluster has it: one NameNode and one DataNode from Hadoop 3.4.3's jars
 * (the YARN daemons' classpath), on the cluster's address. NodeManagers localize Samza packages and
 * Flink's libraries from it, so a container needs nothing from this machine's disk but what YARN
 * fetched for it.
 */
public final class Hdfs {

    public static final int NAMENODE_PORT = 8020;
    public static final int WEB_PORT = 9870;

    private Hdfs() {}

    /** The file system's URI, as {@code fs.defaultFS} and package locations name it. */
    public static String uri(String address) {
        return "hdfs://" + address + ":" + NAMENODE_PORT;
    }

    /** hdfs-site.xml for one NameNode and one DataNode at {@code address}, their data under {@code data}. */
    static Map<String, String> site(String address, Path data) {
        return Map.ofEntries(
                Map.entry("dfs.namenode.rpc-address", address + ":" + NAMENODE_PORT),
                Map.entry("dfs.namenode.rpc-bind-host", address),
                Map.entry("dfs.namenode.http-address", address + ":" + WEB_PORT),
                Map.entry("dfs.namenode.name.dir", "file://" + data.resolve("name")),
                Map.entry("dfs.datanode.data.dir", "file://" + data.resolve("data")),
                Map.entry("dfs.datanode.address", address + ":9866"),
                Map.entry("dfs.datanode.http.address", address + ":9864"),
                Map.entry("dfs.datanode.ipc.address", address + ":9867"),
                // one DataNode: one copy of every block
                Map.entry("dfs.replication", "1"),
                // the jobs' users are not this machine's: one cluster, no HDFS permission model to set up
                Map.entry("dfs.permissions.enabled", "false"),
                // the DataNode registers by address; the namespace has no names for it
                Map.entry("dfs.namenode.datanode.registration.ip-hostname-check", "false"),
                // leave safe mode as soon as the one DataNode reported (default: 30 s extension)
                Map.entry("dfs.namenode.safemode.extension", "0"),
                Map.entry("dfs.namenode.safemode.min.datanodes", "1"));
    }

    /**
     * Whether the file system takes writes: a DataNode is live and the NameNode has left safe mode
     * (from the NameNode's JMX over HTTP).
     */
    static boolean ready(String address) {
        try {
            return bean(address, "FSNamesystemState").path("NumLiveDataNodes").asInt() > 0
                    && bean(address, "NameNodeInfo")
                            .path("Safemode")
                            .asText("?")
                            .isEmpty();
        } catch (ClusterException e) {
            return false; // not answering yet
        }
    }

    /** One of the NameNode's JMX beans, by name. */
    private static JsonNode bean(String address, String name) {
        return JsonRest.call(
                        "HDFS",
                        "http://" + address + ":" + WEB_PORT,
                        "/jmx?qry=Hadoop:service=NameNode,name=" + name,
                        HttpRequest.newBuilder(),
                        Duration.ofSeconds(3))
                .path("beans")
                .path(0);
    }

    /** Whether the NameNode's storage was formatted (by an earlier start in the same directory). */
    static boolean formatted(Path data) {
        return Files.exists(data.resolve("name/current/VERSION"));
    }

    /** Formats a new NameNode's storage (once, before its first start). */
    static List<String> format(String java, Path lib, Path conf) {
        List<String> command = jvm(java, lib, conf, "org.apache.hadoop.hdfs.server.namenode.NameNode");
        command.addAll(List.of("-format", "-nonInteractive", "-force"));
        return command;
    }

    /** The NameNode's or the DataNode's command line. */
    static List<String> daemon(String java, Path dir, Path lib, Path conf, boolean dataNode) {
        try {
            // Maven Central's jar has no web pages; the daemons' HTTP servers (JMX, WebHDFS) want the folders
            for (String app : List.of("hdfs", "datanode", "static")) {
                Files.createDirectories(conf.resolve("webapps").resolve(app));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command = jvm(
                java,
                lib,
                conf,
                dataNode
                        ? "org.apache.hadoop.hdfs.server.datanode.DataNode"
                        : "org.apache.hadoop.hdfs.server.namenode.NameNode");
        command.add(command.indexOf(java) + 1, Daemons.marker(dir));
        return command;
    }

    private static List<String> jvm(String java, Path lib, Path conf, String main) {
        List<String> command = new ArrayList<>(List.of(
                "env", "JAVA_HOME=" + System.getProperty("java.home"), "HADOOP_CONF_DIR=" + conf, java, "-Xmx256m"));
        command.addAll(FlinkRest.JAVA_17_OPTS); // Hadoop needs the same opens on Java 17
        command.add("-Dlog4j.configurationFile=" + conf.resolve("log4j2.properties"));
        command.addAll(List.of("-cp", conf + ":" + lib + "/*", main));
        return command;
    }
}
