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

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A Flink cluster as a client sees it: its REST API (jobs, their metrics), the command-line client's
 * config and jars ({@code local-cluster/flink-cluster/target/lib}), and the JVM options Flink's scripts
 * pass on Java 17.
 */
public final class FlinkRest {

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

    private FlinkRest() {}

    public static Path lib(Path home) {
        return home.resolve("local-cluster/flink-cluster/target/lib");
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
