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
package io.nearline.localcluster.kit.processes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.testkit.LocalProcesses;
import io.nearline.jobs.kit.processes.Home;
import io.nearline.jobs.kit.processes.LogTail;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A Kafka Connect worker of a local run (Apache Kafka's own {@code ConnectDistributed}, from the
 * connect-worker module's jars, Debezium's connectors on its plugin path), in distributed mode on the
 * run's broker, its REST API on loopback. The local cluster's worker ({@code cluster up --connect})
 * runs with the same worker settings ({@link #workerProperties}). Ended by its PID.
 */
public final class ForkedConnect implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    /** Starts of a worker before giving up: a worker that exits at start is started again on another port. */
    private static final int START_ATTEMPTS = 3;

    private final Process process;
    private final String rest;
    /** The worker's files: its config, its log, the secrets its connectors refer to. */
    private final Path dir;

    private ForkedConnect(Process process, String rest, Path dir) {
        this.process = process;
        this.rest = rest;
        this.dir = dir;
    }

    public static Path lib(Path home) {
        return home.resolve("local-cluster/connect-worker/target/lib");
    }

    public static Path plugins(Path home) {
        return home.resolve("local-cluster/connect-worker/target/plugins");
    }

    /** The Prometheus JMX exporter agent (connect-worker's build copies it from Maven Central). */
    public static Path prometheusAgent(Path home) {
        return home.resolve("local-cluster/connect-worker/target/agents/jmx_prometheus_javaagent.jar");
    }

    /** The exporter's rules for the cache sink's counters, as shipped for users' workers. */
    public static Path prometheusRules(Path home) {
        return home.resolve("jobs/connect-conf/jmx-exporter.yaml");
    }

    /** The cache sink connector's plugin as it ships (built by cache-updater/connect; jobs/target/dist holds a copy). */
    public static Path sinkPluginZip(Path home) {
        return home.resolve("cache-updater/connect/target/nearline-cache-sink-connect.zip");
    }

    /** The worker's settings: on {@code kafka}, REST on {@code host:port}, the plugins in {@code pluginPath} (comma-separated). */
    public static List<String> workerProperties(String host, int port, String kafka, String pluginPath) {
        return List.of(
                "bootstrap.servers=" + kafka,
                "group.id=nearline-connect",
                "listeners=http://" + host + ":" + port,
                "rest.advertised.host.name=" + host,
                "plugin.path=" + pluginPath,
                // Kafka's and Debezium's plugins all carry ServiceLoader manifests: no class scan at start
                "plugin.discovery=service_load",
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
                // a sink task's partitions move to another worker 10 s after its worker dies (default 45 s)
                "consumer.session.timeout.ms=10000",
                "consumer.heartbeat.interval.ms=3000",
                // a dead worker's connectors and tasks go to the workers left at once: Connect would otherwise
                // hold them up to 5 minutes for it to come back (its workers here do not come back)
                "scheduled.rebalance.max.delay.ms=0",
                // secrets by reference: ${file:/path:key} in a connector's config
                "config.providers=file",
                "config.providers.file.class=org.apache.kafka.common.config.provider.FileConfigProvider");
    }

    /** The worker's log4j2 settings: INFO to its standard output, the chattiest classes quieter. */
    public static List<String> logSettings() {
        return List.of(
                "rootLogger.level=INFO",
                "rootLogger.appenderRef.out.ref=out",
                "appender.out.type=Console",
                "appender.out.name=out",
                "appender.out.layout.type=PatternLayout",
                "appender.out.layout.pattern=%d{ISO8601} %-5p [%t] %c{1}: %m%n",
                "logger.reflections.name=org.reflections",
                "logger.reflections.level=ERROR",
                "logger.kafka.name=org.apache.kafka.clients",
                "logger.kafka.level=WARN");
    }

    /** Starts a worker on {@code kafka} with its files in {@code dir}; returns once its REST API lists plugins. */
    public static ForkedConnect start(Path dir, String kafka) throws IOException {
        return start(dir, kafka, List.of(), List.of());
    }

    /**
     * A worker with {@code morePlugins} on its plugin path beside Debezium's and {@code jvmOptions} on its
     * command line; the same group and topics, so a worker started again on the same broker takes up
     * the connectors and their committed positions where the last one left them.
     */
    public static ForkedConnect start(Path dir, String kafka, List<Path> morePlugins, List<String> jvmOptions)
            throws IOException {
        Path home = Home.dir();
        if (!Files.isDirectory(lib(home)) || !Files.isDirectory(plugins(home))) {
            throw new IllegalStateException(lib(home) + " is missing: build with ./mvnw package -DskipTests");
        }
        Files.createDirectories(dir);
        // A port free when chosen can be taken before the worker binds it (an outgoing connection's
        // ephemeral port): a worker that exits before it answers is started again on another port.
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            ForkedConnect connect = startOnce(home, dir, kafka, morePlugins, jvmOptions);
            if (connect.awaitUp(Duration.ofSeconds(120))) {
                return connect;
            }
            boolean exited = !connect.process.isAlive();
            connect.close();
            if (!exited) {
                break; // alive but not answering: another try would wait as long again
            }
        }
        throw new IOException("the Kafka Connect worker did not come up; see " + dir.resolve("connect.log"));
    }

    private static ForkedConnect startOnce(
            Path home, Path dir, String kafka, List<Path> morePlugins, List<String> jvmOptions) throws IOException {
        int port = LocalProcesses.freePort();
        StringBuilder pluginPath = new StringBuilder(plugins(home).toString());
        morePlugins.forEach(p -> pluginPath.append(',').append(p));
        Path worker = Files.write(
                dir.resolve("worker.properties"),
                workerProperties("127.0.0.1", port, kafka, pluginPath.toString()),
                StandardCharsets.UTF_8);
        Path log = Files.write(dir.resolve("log4j2.properties"), logSettings(), StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(Home.java(), "-Xmx512m", "-Dlog4j2.configurationFile=" + log));
        command.addAll(jvmOptions);
        command.addAll(
                List.of("-cp", lib(home) + "/*", "org.apache.kafka.connect.cli.ConnectDistributed", worker.toString()));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        dir.resolve("connect.log").toFile()))
                .start();
        return new ForkedConnect(process, "http://127.0.0.1:" + port, dir);
    }

    /** Whether the worker's REST API answers within {@code timeout}; false as soon as the worker exits. */
    private boolean awaitUp(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline && process.isAlive()) {
            try {
                if (!get("/connector-plugins").isEmpty()) {
                    return true;
                }
            } catch (IOException e) {
                // not listening yet
            }
            LocalProcesses.sleep(300);
        }
        return false;
    }

    /** The last warnings and errors in the log of the worker run in {@code dir}: what a failed run prints. */
    public static String problems(Path dir) {
        // with the exception lines after an error: "Stopping due to error" alone does not say which
        return LogTail.of(
                dir.resolve("connect.log"),
                l -> l.contains(" WARN ")
                        || l.contains(" ERROR ")
                        || l.startsWith("Caused by: ")
                        || l.matches("^[a-z][\\w.$]*\\.[A-Z]\\w*(Exception|Error)\\b.*"));
    }

    public String rest() {
        return rest;
    }

    /**
     * Creates (or reconfigures) the connector {@code name} and waits until it and its tasks run; a
     * failed task is an {@link IOException} with the first line of its error.
     */
    /**
     * Keeps {@code value} under {@code key} in the worker's secrets file (its owner's only) and returns
     * the reference the worker's file config provider resolves when a task starts: the connector's
     * config, which Connect keeps in its config topic and shows over REST, holds the reference only.
     */
    public String secret(String key, String value) throws IOException {
        return secret(dir.toAbsolutePath().resolve("secrets.properties"), key, value);
    }

    /** {@link #secret} in {@code file}: created readable by its owner only, other keys in it kept. */
    static String secret(Path file, String key, String value) throws IOException {
        Properties secrets = new Properties();
        if (Files.exists(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                secrets.load(in);
            }
        } else {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        secrets.setProperty(key, value);
        try (OutputStream out = Files.newOutputStream(file)) {
            secrets.store(out, "read by the worker's file config provider");
        }
        return "${file:" + file + ":" + key + "}";
    }

    public void deploy(String name, Map<String, String> config, Duration timeout) throws IOException {
        HttpResponse<String> put = send(HttpRequest.newBuilder(URI.create(rest + "/connectors/" + name + "/config"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(config))));
        if (put.statusCode() >= 300) {
            throw new IOException("Kafka Connect refused connector " + name + ": " + put.body());
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            JsonNode status;
            try {
                status = get("/connectors/" + name + "/status");
            } catch (IOException e) {
                LocalProcesses.sleep(300);
                continue;
            }
            last = status.toString();
            boolean running = status.path("connector").path("state").asText().equals("RUNNING")
                    && !status.path("tasks").isEmpty();
            for (JsonNode task : status.path("tasks")) {
                String state = task.path("state").asText();
                if (state.equals("FAILED")) {
                    throw new IOException("connector " + name + " failed: "
                            + task.path("trace").asText().lines().findFirst().orElse(""));
                }
                running &= state.equals("RUNNING");
            }
            if (running) {
                return;
            }
            LocalProcesses.sleep(300);
        }
        throw new IOException("connector " + name + " is not running after " + timeout.toSeconds() + " s: " + last);
    }

    /** Removes the connector {@code name}: its tasks stop and commit what they wrote. */
    public void remove(String name) throws IOException {
        HttpResponse<String> r = send(
                HttpRequest.newBuilder(URI.create(rest + "/connectors/" + name)).DELETE());
        if (r.statusCode() >= 300 && r.statusCode() != 404) {
            throw new IOException("Kafka Connect did not remove connector " + name + ": " + r.body());
        }
    }

    /** Stops the connector {@code name} (its tasks end, its config and offsets stay) and waits until it is. */
    public void stop(String name) throws IOException {
        state(name, "stop", "STOPPED");
    }

    /** Resumes the connector {@code name} and waits until it runs. */
    public void resume(String name) throws IOException {
        state(name, "resume", "RUNNING");
    }

    /**
     * Moves the stopped connector {@code name}'s source offsets to {@code offsets} (Kafka Connect's
     * offsets API, a JSON body {@code {"offsets":[{"partition":…,"offset":…}]}}): what a connector
     * restarted past its offsets does.
     */
    public void moveOffsets(String name, String offsets) throws IOException {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(rest + "/connectors/" + name + "/offsets"))
                .header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(offsets)));
        if (r.statusCode() >= 300) {
            throw new IOException("Kafka Connect did not move connector " + name + "'s offsets: " + r.body());
        }
    }

    /** PUTs {@code /connectors/NAME/ACTION}, then waits (up to a minute) until the connector is in {@code state}. */
    private void state(String name, String action, String state) throws IOException {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(rest + "/connectors/" + name + "/" + action))
                .PUT(HttpRequest.BodyPublishers.noBody()));
        if (r.statusCode() >= 300) {
            throw new IOException("Kafka Connect did not " + action + " connector " + name + ": " + r.body());
        }
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (!get("/connectors/" + name + "/status")
                .path("connector")
                .path("state")
                .asText()
                .equals(state)) {
            if (System.nanoTime() > deadline) {
                throw new IOException("connector " + name + " is not " + state + " a minute after " + action);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
    }

    /** The worker's answer to a GET of {@code path} on its REST API. */
    public JsonNode get(String path) throws IOException {
        HttpResponse<String> r =
                send(HttpRequest.newBuilder(URI.create(rest + path)).GET());
        if (r.statusCode() >= 300) {
            throw new IOException(path + ": " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body());
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    /** Kills the worker at once (SIGKILL), as a crash would: nothing of it runs its shutdown. */
    public void kill() {
        try {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the worker (SIGTERM, then SIGKILL after 20 s), by the process started here. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
