package io.nearline.localcluster.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.nearline.localcluster.cluster.ClusterDatabase;
import io.nearline.localcluster.cluster.ClusterException;
import io.nearline.localcluster.cluster.ClusterFile;
import io.nearline.localcluster.cluster.ConnectWorker;
import io.nearline.localcluster.cluster.Daemons;
import io.nearline.localcluster.databases.CaptureReadiness;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A connector deployed to the cluster's Kafka Connect worker over its REST API: the descriptor's
 * settings are the connector's own keys; the cluster adds where its database and broker are (a key the
 * descriptor or {@code --set} gives wins), the password by reference to the worker's secrets file.
 * Connect validates the config first; a key it refuses stops the deploy with that key named.
 */
final class ConnectDeploy {

    private ConnectDeploy() {}

    /** The connector's config: the cluster's addresses, then the descriptor's settings, then the overrides. */
    static Map<String, String> config(Descriptor d, ClusterFile c, Map<String, String> overrides) {
        Map<String, String> config = new LinkedHashMap<>();
        String kind = d.job().substring("debezium-".length());
        Map<String, String> db = c.database(kind);
        config.put("database.hostname", db.get("host"));
        config.put("database.port", db.get("port"));
        config.put("database.user", db.get("user"));
        config.put("database.password", ConnectWorker.secret(c.dir(), kind + ".password"));
        String table = db.get("table");
        config.put("table.include.list", table);
        if (kind.equals("postgres")) {
            config.put("database.dbname", db.get("database"));
        } else {
            config.put("database.include.list", db.get("database"));
            config.put("schema.history.internal.kafka.bootstrap.servers", c.kafkaBootstrapServers());
        }
        config.putAll(d.settings());
        config.putAll(overrides);
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
        readyForCapture(d, c);
        validate(rest, config);
        ConnectWorker.put(rest, "/connectors/" + encode(d.name()) + "/config", config);
        String state = awaitRunning(rest, d.name(), Duration.ofSeconds(90));
        System.out.println("deployed " + d.name() + " as a Kafka Connect connector (" + state + ")");
        System.out.println("  tables   " + config.get("table.include.list"));
        System.out.println("  topic    "
                + config.getOrDefault(
                        "transforms.route.replacement", config.get("topic.prefix") + ".<schema>.<table>"));
        System.out.println("  watch    " + rest + "/connectors/" + d.name() + "/status");
        System.out.println("  stop     curl -X DELETE " + rest + "/connectors/" + d.name());
        return 0;
    }

    /** The database set up for the connector (logical WAL or a row binlog, the user's privileges): else exit 2, the setting named. */
    private static void readyForCapture(Descriptor d, ClusterFile c) {
        String kind = d.job().substring("debezium-".length());
        Optional<String> problem;
        try (Connection conn = ClusterDatabase.connect(c.database(kind))) {
            problem = CaptureReadiness.problem(kind, conn);
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
                ConnectWorker.put(rest, "/connector-plugins/" + encode(connectorClass) + "/config/validate", config);
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
                status = ConnectWorker.get(rest, "/connectors/" + encode(name) + "/status");
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
