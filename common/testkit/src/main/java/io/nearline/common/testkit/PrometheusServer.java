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
package io.nearline.common.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's Prometheus server and {@code promtool} for the tests of the shipped monitoring: a server on
 * loopback that scrapes the targets a test names every second and evaluates the shipped rules, and
 * {@code promtool} for rule checks. Where the package is missing the tests skip with the reason, unless
 * {@value #REQUIRE_ENV} is true (CI sets it, having installed the package): then it is an error.
 */
public final class PrometheusServer implements AutoCloseable {

    public static final String REQUIRE_ENV = "NEARLINE_REQUIRE_PROMETHEUS";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final URI api;
    private final HttpClient http = HttpClient.newHttpClient();

    private PrometheusServer(Process process, URI api) {
        this.process = process;
        this.api = api;
    }

    /** Why the tests cannot run Prometheus here, or empty; an error instead when {@value #REQUIRE_ENV} is true. */
    public static Optional<String> skipReason() {
        Optional<String> whyNot =
                Files.isExecutable(Path.of("/usr/bin/prometheus")) && Files.isExecutable(Path.of("/usr/bin/promtool"))
                        ? Optional.empty()
                        : Optional.of("Debian's prometheus package is not installed (apt-get install prometheus)");
        return Required.skipReason(REQUIRE_ENV, whyNot);
    }

    /** Runs {@code promtool} with {@code args}; returns its exit code and output. */
    public static Result promtool(Path workDir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("/usr/bin/promtool"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("promtool " + String.join(" ", args) + " did not end in 60 s");
        }
        return new Result(p.exitValue(), out);
    }

    /** What promtool said. */
    public record Result(int exit, String output) {}

    /**
     * Starts a server in {@code dir} that scrapes {@code targets} (host:port on loopback, path /metrics)
     * under scrape job {@code job} every second and evaluates {@code ruleFiles} every second.
     */
    public static PrometheusServer start(Path dir, String job, List<String> targets, List<Path> ruleFiles)
            throws IOException, InterruptedException {
        int port = LocalProcesses.freePort();
        StringBuilder config = new StringBuilder("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n");
        config.append("rule_files:\n");
        for (Path rules : ruleFiles) {
            config.append("  - '").append(rules.toAbsolutePath()).append("'\n");
        }
        config.append("scrape_configs:\n  - job_name: '").append(job).append("'\n    static_configs:\n");
        config.append("      - targets: [");
        config.append(String.join(", ", targets.stream().map(t -> "'" + t + "'").toList()));
        config.append("]\n");
        Path file = dir.resolve("prometheus.yml");
        Files.writeString(file, config.toString());
        Process process = new ProcessBuilder(
                        "/usr/bin/prometheus",
                        "--config.file=" + file,
                        "--storage.tsdb.path=" + dir.resolve("data"),
                        "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile())
                .start();
        PrometheusServer server = new PrometheusServer(process, URI.create("http://127.0.0.1:" + port));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!server.ready()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                server.close();
                throw new IOException(
                        "prometheus did not start; its log: " + Files.readString(dir.resolve("prometheus.log")));
            }
            LocalProcesses.sleep(200);
        }
        return server;
    }

    private boolean ready() {
        try {
            return http.send(
                                    HttpRequest.newBuilder(api.resolve("/-/ready"))
                                            .timeout(Duration.ofSeconds(2))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalProcesses.Interrupted(e);
        }
    }

    /** The samples an instant query returns now (its {@code data.result}); an error Prometheus reports is thrown. */
    public JsonNode query(String expr) throws IOException, InterruptedException {
        return query(api, expr);
    }

    private static final Pattern DASHBOARD_QUERY = Pattern.compile("\"expr\": \"((?:[^\"\\\\]|\\\\.)*)\"");

    /** Every query ({@code "expr"}) of a Grafana dashboard's JSON, unescaped, in the order written. */
    public static List<String> dashboardQueries(String dashboard) {
        List<String> out = new ArrayList<>();
        Matcher m = DASHBOARD_QUERY.matcher(dashboard);
        while (m.find()) {
            out.add(m.group(1).replace("\\\"", "\""));
        }
        return out;
    }

    private static JsonNode query(URI api, String expr) throws IOException, InterruptedException {
        URI uri = api.resolve("/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
        JsonNode answer = JSON.readTree(HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString())
                .body());
        if (!"success".equals(answer.path("status").asText())) {
            throw new IOException("query " + expr + ": " + answer);
        }
        return answer.path("data").path("result");
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
