package io.nearline.localcluster.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The local cluster's Kafka Connect worker: Apache Kafka's own {@code ConnectDistributed} from the
 * connect-worker module's jars, in distributed mode on the cluster's broker, its REST API on the
 * cluster's address, Debezium's PostgreSQL and MySQL connectors on its plugin path (a class loader of
 * their own). Also the few calls of Connect's REST API that deploys and {@code cluster status} make.
 */
public final class ConnectWorker {

    public static final int REST_PORT = 8083;
    public static final String GROUP = "nearline-connect";

    private ConnectWorker() {}

    public static Path lib(Path home) {
        return home.resolve("local-cluster/connect-worker/target/lib");
    }

    public static Path plugins(Path home) {
        return home.resolve("local-cluster/connect-worker/target/plugins");
    }

    /** {@code DIR/connect/worker.properties} and its log configuration; returns that directory. */
    static Path writeConfig(Path dir, String address, String kafka, Path plugins) throws IOException {
        Path conf = Files.createDirectories(dir.resolve("connect"));
        List<String> worker = List.of(
                "bootstrap.servers=" + kafka,
                "group.id=" + GROUP,
                "listeners=http://" + address + ":" + REST_PORT,
                "rest.advertised.host.name=" + address,
                "plugin.path=" + plugins,
                // Debezium's own JSON form, schema included: what the jobs' debezium-json format reads
                "key.converter=org.apache.kafka.connect.json.JsonConverter",
                "value.converter=org.apache.kafka.connect.json.JsonConverter",
                "key.converter.schemas.enable=true",
                "value.converter.schemas.enable=true",
                "config.storage.topic=nearline-connect-configs",
                "offset.storage.topic=nearline-connect-offsets",
                "status.storage.topic=nearline-connect-status",
                // one broker
                "config.storage.replication.factor=1",
                "offset.storage.replication.factor=1",
                "status.storage.replication.factor=1",
                "offset.flush.interval.ms=1000",
                // Kafka's and Debezium's plugins all carry ServiceLoader manifests: no class scan at start
                "plugin.discovery=service_load",
                // secrets by reference: ${file:/path:key} in a connector's config
                "config.providers=file",
                "config.providers.file.class=org.apache.kafka.common.config.provider.FileConfigProvider");
        Files.write(conf.resolve("worker.properties"), worker, StandardCharsets.UTF_8);
        Files.write(
                conf.resolve("log4j2.properties"),
                List.of(
                        "rootLogger.level=INFO",
                        "rootLogger.appenderRef.out.ref=out",
                        "appender.out.type=Console",
                        "appender.out.name=out",
                        "appender.out.layout.type=PatternLayout",
                        "appender.out.layout.pattern=%d{ISO8601} %-5p [%t] %c{1}: %m%n",
                        "logger.reflections.name=org.reflections",
                        "logger.reflections.level=ERROR",
                        "logger.kafka.name=org.apache.kafka.clients",
                        "logger.kafka.level=WARN"),
                StandardCharsets.UTF_8);
        return conf;
    }

    /**
     * {@code DIR/connect/secrets.properties}: each database's password as {@code KIND.password}, which a
     * connector's config names by reference ({@link #secret}) rather than by value, so that it is never
     * shown by Connect's REST API.
     */
    static void writeSecrets(Path dir, Map<String, Map<String, String>> databases) throws IOException {
        Path file = secrets(dir);
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> db : databases.entrySet()) {
            String password = Files.readString(Path.of(db.getValue().get("password-file")), StandardCharsets.UTF_8)
                    .strip();
            lines.add(db.getKey() + ".password=" + password);
        }
        Files.write(file, lines, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    private static Path secrets(Path dir) {
        return dir.toAbsolutePath().resolve("connect/secrets.properties");
    }

    /** The reference to a secret {@link #writeSecrets} kept, resolved by the worker's file config provider. */
    public static String secret(Path dir, String key) {
        return "${file:" + secrets(dir) + ":" + key + "}";
    }

    static List<String> daemon(String java, Path dir, Path lib, Path conf) {
        List<String> command = new ArrayList<>(List.of(java, Daemons.marker(dir), "-Xmx512m"));
        command.add("-Dlog4j2.configurationFile=" + conf.resolve("log4j2.properties"));
        command.addAll(List.of("-cp", lib + "/*", "org.apache.kafka.connect.cli.ConnectDistributed"));
        command.add(conf.resolve("worker.properties").toString());
        return command;
    }

    // ---- REST ----

    private static final String WHO = "the Kafka Connect worker";

    public static JsonNode get(String rest, String path) {
        return JsonRest.call(WHO, rest, path, HttpRequest.newBuilder().GET(), Duration.ofSeconds(60));
    }

    public static JsonNode put(String rest, String path, Map<String, String> body) {
        return JsonRest.call(
                WHO, rest, path, JsonRest.withBody(HttpRequest.newBuilder(), "PUT", body), Duration.ofSeconds(60));
    }

    public static JsonNode delete(String rest, String path) {
        return JsonRest.call(WHO, rest, path, HttpRequest.newBuilder().DELETE(), Duration.ofSeconds(60));
    }

    /** The connector classes the worker has loaded, or none when it does not answer yet. */
    public static List<String> connectorClasses(String rest) {
        List<String> out = new ArrayList<>();
        try {
            get(rest, "/connector-plugins").forEach(p -> out.add(p.path("class").asText()));
        } catch (ClusterException e) {
            // not up yet
        }
        return out;
    }
}
