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
import io.nearline.jobs.cluster.ConnectRest;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.database.CaptureReadiness;
import io.nearline.jobs.cluster.database.DebeziumSignals;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.jobs.kit.processes.ConnectJmx;
import io.nearline.jobs.kit.processes.PluginZip;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A connector deployed to the cluster's Kafka Connect worker over its REST API: the descriptor's
 * settings are the connector's own keys; the cluster adds where its database and broker are (a key the
 * descriptor or {@code --set} gives wins), the password by reference to the worker's secrets file. The
 * cache sink (job cache-updater) gets the cluster's cache the way the jobs do.
 * Connect validates the config first; a key it refuses stops the deploy with that key named.
 */
final class ConnectDeploy {

    private ConnectDeploy() {}

    /** The connector's config: the cluster's addresses, then the descriptor's settings, then the overrides. */
    static Map<String, String> config(Descriptor d, ClusterFile c, Map<String, String> overrides) {
        return config(d, c, overrides, kind -> ConnectRest.secret(c.dir(), kind + ".password"));
    }

    /**
     * As {@link #config(Descriptor, ClusterFile, Map)}, with the database's password as {@code password}
     * writes a reference to it for a database kind ({@code postgres}, {@code mysql}): the local worker's
     * secrets file, or a Kubernetes Secret mounted in the Connect pods.
     */
    static Map<String, String> config(
            Descriptor d, ClusterFile c, Map<String, String> overrides, Function<String, String> password) {
        if (isCacheSink(d)) {
            return sinkConfig(d, c, overrides);
        }
        Map<String, String> config = new LinkedHashMap<>();
        String kind = databaseKind(d);
        Map<String, String> db = c.database(kind);
        config.put("database.hostname", db.get("host"));
        config.put("database.port", db.get("port"));
        config.put("database.user", db.get("user"));
        config.put("database.password", password.apply(kind));
        // every table the cluster file lists, and no other: the job's topic carries exactly these
        config.put("table.include.list", String.join(",", ClusterFile.tables(db)));
        if (kind.equals("postgres")) {
            config.put("database.dbname", db.get("database"));
        } else {
            config.put("database.include.list", db.get("database"));
            config.put("schema.history.internal.kafka.bootstrap.servers", c.kafkaBootstrapServers());
        }
        config.putAll(d.settings());
        config.putAll(overrides);
        DebeziumSignals.pointAt(config, DebeziumSignals.qualified(kind, db)); // resync's requests
        config.put("name", d.name());
        config.put("tasks.max", "" + d.parallelism());
        return config;
    }

    /** The cluster file's database section a Debezium descriptor captures: {@code postgres} or {@code mysql}. */
    static String databaseKind(Descriptor d) {
        return d.job().substring("debezium-".length());
    }

    /** The cache updater as a Connect sink (cache-updater/connect), rather than a Debezium source. */
    static boolean isCacheSink(Descriptor d) {
        return d.job().equals("cache-updater");
    }

    /**
     * The cache sink's config: the cluster's cache (its password by reference to its file), then the
     * descriptor's settings (Connect's and Nearline's keys), then the overrides. Kafka's addresses and
     * security are the worker's own, so the cluster's {@code kafka.*} settings are left out.
     */
    static Map<String, String> sinkConfig(Descriptor d, ClusterFile c, Map<String, String> overrides) {
        Map<String, String> config = new LinkedHashMap<>();
        c.jobSettings(d.settings(), overrides).forEach((key, value) -> {
            if (!key.startsWith("kafka.")) {
                config.put(key, value);
            }
        });
        config.put("name", d.name());
        config.put("tasks.max", "" + d.parallelism());
        return config;
    }

    static int deploy(Descriptor d, ClusterFile c, Map<String, String> overrides, boolean dryRun) {
        String rest = c.connectRest();
        Map<String, String> config = config(d, c, overrides);
        if (dryRun) {
            System.out.println("deploy " + d.name() + " (" + d.job() + ") to Kafka Connect at " + rest
                    + " (dry run: nothing submitted)");
            System.out.println("connector config (PUT " + rest + "/connectors/" + d.name() + "/config):");
            new TreeMap<>(config).forEach((k, v) -> System.out.println("  " + k + ": " + v));
            return 0;
        }
        if (!isCacheSink(d)) {
            readyForCapture(d, c, config);
        }
        validate(rest, config);
        ConnectRest.put(rest, "/connectors/" + encode(d.name()) + "/config", config);
        String state = awaitRunning(rest, d.name(), Duration.ofSeconds(90));
        System.out.println("deployed " + d.name() + " as a Kafka Connect connector (" + state + ")");
        if (isCacheSink(d)) {
            System.out.println("  topics   " + config.get("topics") + " -> " + c.describeStore());
            System.out.println("  dlq      " + config.get("errors.deadletterqueue.topic.name"));
        } else {
            System.out.println("  tables   " + config.get("table.include.list"));
            System.out.println("  topic    "
                    + config.getOrDefault(
                            "transforms.route.replacement", config.get("topic.prefix") + ".<schema>.<table>"));
        }
        System.out.println("  watch    " + rest + "/connectors/" + d.name() + "/status");
        System.out.println("  stop     curl -X DELETE " + rest + "/connectors/" + d.name());
        return 0;
    }

    /** Jobs' ids for connectors: {@code connect:NAME}. */
    static final String ID_PREFIX = "connect:";

    /** Each connector on the worker: id, name, state (FAILED when a task failed), events.written (the cache sink's). */
    static List<String[]> list(ClusterFile c) {
        String rest = c.connectRest();
        List<String[]> rows = new ArrayList<>();
        for (JsonNode name : ConnectRest.get(rest, "/connectors")) {
            JsonNode status = ConnectRest.get(rest, "/connectors/" + encode(name.asText()) + "/status");
            String state = status.path("connector").path("state").asText();
            for (JsonNode t : status.path("tasks")) {
                if (t.path("state").asText().equals("FAILED")) {
                    state = "FAILED";
                }
            }
            String written = "-";
            String type = ConnectRest.get(rest, "/connectors/" + encode(name.asText()))
                    .path("config")
                    .path("connector.class")
                    .asText();
            if (type.equals(SINK_CLASS) && state.equals("RUNNING")) {
                written = counter(rest, name.asText(), "events.written");
            }
            rows.add(new String[] {ID_PREFIX + name.asText(), name.asText(), state, written});
        }
        return rows;
    }

    static final String SINK_CLASS = "io.nearline.cacheupdater.connect.CacheSinkConnector";

    /** A counter of the cache sink's tasks, summed, from the worker's JMX (on its REST address); "(no JMX)" if it has none. */
    private static String counter(String rest, String name, String counter) {
        String host = java.net.URI.create(rest).getHost();
        try (ConnectJmx jmx = ConnectJmx.connect(host, ConnectRest.JMX_PORT)) {
            return String.format("%,d", jmx.sum(name, counter));
        } catch (IOException e) {
            return "(no JMX)";
        }
    }

    /** Deletes connector {@code name}: its tasks stop, its committed offsets stay with its consumer group for a later deploy. */
    static int stop(ClusterFile c, String name) {
        String rest = c.connectRest();
        ConnectRest.get(rest, "/connectors/" + encode(name)); // an unknown name is an error, named
        ConnectRest.delete(rest, "/connectors/" + encode(name));
        System.out.println("stopped connector " + name + " (its offsets stay with consumer group connect-" + name
                + ": a deploy of the same name resumes from them)");
        return 0;
    }

    /**
     * The running connector of a descriptor given its new config: validated first, then applied in
     * place; Connect restarts its tasks, which resume from the group's committed offsets. With
     * {@code plugin} (a plugin zip), on a cluster whose worker Nearline started, the new plugin first
     * replaces the one on the worker's plugin path and the worker is restarted (stopped gracefully:
     * its tasks commit what they wrote); the connector comes back with the same offsets.
     */
    static int upgrade(Descriptor d, ClusterFile c, Map<String, String> overrides, Path plugin) {
        String rest = c.connectRest();
        if (!ConnectRest.connectors(rest).contains(d.name())) {
            throw new ClusterException("no connector named " + d.name() + " on " + rest
                    + ": deploy it first ('bin/nearline deploy " + d.file() + "')");
        }
        Map<String, String> config = config(d, c, overrides);
        validate(rest, config);
        if (plugin != null) {
            replacePlugin(c, plugin);
        }
        ConnectRest.put(rest, "/connectors/" + encode(d.name()) + "/config", config);
        String state = awaitRunning(rest, d.name(), Duration.ofSeconds(90));
        System.out.println("upgraded " + d.name() + " in place (" + state + "; plugin " + pluginVersion(rest)
                + "); offsets kept (consumer group connect-" + d.name() + ")");
        return 0;
    }

    /** The new plugin on the cluster's worker: unpacked beside the old, swapped in, the worker restarted. */
    private static void replacePlugin(ClusterFile c, Path zip) {
        Long pid = c.processes().get("connect");
        if (pid == null) {
            throw new ClusterException("--plugin: the Kafka Connect worker of " + c.dir() + " was not started by "
                    + "Nearline: put the plugin on its workers' plugin.path, restart them, then run 'jobs upgrade' "
                    + "without --plugin");
        }
        Path plugins = c.dir().resolve("connect/plugins");
        Path fresh = c.dir().resolve("connect/plugins.new");
        try {
            PluginZip.unpack(zip, fresh);
            Daemons.stop(c.dir(), Map.of("connect", pid), Duration.ofSeconds(60));
            deleteTree(plugins);
            Files.move(fresh, plugins);
        } catch (IOException | IllegalStateException e) {
            throw new ClusterException("--plugin " + zip + ": " + e.getMessage());
        }
        long restarted = Daemons.restart(c.dir(), "connect");
        String rest = c.connectRest();
        Daemons.await(c.dir(), "connect", restarted, Duration.ofSeconds(180), () -> ConnectRest.connectorClasses(rest)
                .contains(SINK_CLASS));
        System.out.println("restarted the Kafka Connect worker with the plugin from " + zip);
    }

    private static String pluginVersion(String rest) {
        for (JsonNode p : ConnectRest.get(rest, "/connector-plugins")) {
            if (p.path("class").asText().equals(SINK_CLASS)) {
                return p.path("version").asText();
            }
        }
        return "?";
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** The database set up for the connector (logical WAL or a row binlog, the user's privileges): else exit 2, the setting named. */
    private static void readyForCapture(Descriptor d, ClusterFile c, Map<String, String> config) {
        String kind = d.job().substring("debezium-".length());
        Optional<String> problem;
        try (Connection conn = SourceDatabase.connect(c.database(kind))) {
            problem = CaptureReadiness.problem(kind, conn);
            if (problem.isEmpty() && DebeziumSignals.takenBy(config)) {
                problem = DebeziumSignals.create(conn, config.get("signal.data.collection"));
            }
        } catch (SQLException | IOException e) {
            throw new ClusterException(
                    "cannot reach the " + kind + " database the cluster file names: " + e.getMessage());
        }
        if (problem.isPresent()) {
            throw new ClusterException(d.name() + ": " + problem.get());
        }
    }

    /** Connect's own validation of the config: the first key with an error, named, exit 2. */
    private static void validate(String rest, Map<String, String> config) {
        String connectorClass = config.get("connector.class");
        if (connectorClass == null) {
            throw new ClusterException("the connector's settings name no connector.class");
        }
        JsonNode answer =
                ConnectRest.put(rest, "/connector-plugins/" + encode(connectorClass) + "/config/validate", config);
        if (answer.path("error_count").asInt() == 0) {
            return;
        }
        for (JsonNode c : answer.path("configs")) {
            JsonNode errors = c.path("value").path("errors");
            if (!errors.isEmpty()) {
                throw new ClusterException("Kafka Connect refuses the connector's config: "
                        + c.path("value").path("name").asText() + ": "
                        + errors.get(0).asText().lines().findFirst().orElse(""));
            }
        }
        throw new ClusterException("Kafka Connect refuses the connector's config: " + answer);
    }

    /**
     * Waits until the connector and every task of it run; a task that fails is reported by the first
     * line of its error (exit 1), as is a connector still not running after {@code timeout}.
     */
    private static String awaitRunning(String rest, String name, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no status yet";
        while (System.nanoTime() < deadline) {
            JsonNode status;
            try {
                status = ConnectRest.get(rest, "/connectors/" + encode(name) + "/status");
            } catch (ClusterException e) {
                Daemons.sleep(500); // not known to the worker yet: the config is still being written
                continue;
            }
            JsonNode tasks = status.path("tasks");
            for (JsonNode t : tasks) {
                if (t.path("state").asText().equals("FAILED")) {
                    throw ClusterException.failed("connector " + name + " task "
                            + t.path("id").asInt() + " failed: "
                            + t.path("trace").asText().lines().findFirst().orElse("(no trace)"));
                }
            }
            String connector = status.path("connector").path("state").asText();
            if (connector.equals("FAILED")) {
                throw ClusterException.failed("connector " + name + " failed: "
                        + status.path("connector")
                                .path("trace")
                                .asText()
                                .lines()
                                .findFirst()
                                .orElse("(no trace)"));
            }
            boolean allRunning = tasks.size() > 0;
            for (JsonNode t : tasks) {
                allRunning &= t.path("state").asText().equals("RUNNING");
            }
            if (connector.equals("RUNNING") && allRunning) {
                return "RUNNING, " + tasks.size() + " task(s)";
            }
            last = "connector " + connector + ", " + tasks.size() + " task(s)";
            Daemons.sleep(500);
        }
        throw ClusterException.failed("connector " + name + " is not running after " + timeout.toSeconds() + " s ("
                + last + "): " + rest + "/connectors/" + name + "/status");
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
