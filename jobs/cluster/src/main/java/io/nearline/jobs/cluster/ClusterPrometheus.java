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
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Debian's Prometheus server in a local cluster ({@code cluster up --prometheus}): on the cluster's
 * address, evaluating the shipped rules ({@code jobs/monitoring/nearline-rules.yaml}), its targets found
 * through file-based service discovery in {@code DIR/prometheus/targets/}: one file per kind of process
 * the cluster runs that exports metrics (the Flink JobManager and TaskManager's reporters, the Connect
 * worker's exporter agent), written as the cluster starts them, and one per Samza job deployed to the
 * cluster's YARN (its containers' exporter agents), written by the deploy and taken out by its stop. A target added later is a file more;
 * Prometheus picks it up without a restart.
 */
public final class ClusterPrometheus {

    public static final int PORT = 9090;
    private static final ObjectMapper JSON = new ObjectMapper();

    private ClusterPrometheus() {}

    /** Takes a process's targets out of the discovery files (it stopped). */
    public static void untarget(Path dir, String process) {
        try {
            Files.deleteIfExists(dir.resolve("prometheus/targets/" + process + ".json"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String url(String address) {
        return "http://" + address + ":" + PORT;
    }

    /** Where a Samza job's exporters begin: clear of Flink's reporters (9249–9260), Connect's (9404), verify's (9464). */
    static final int SAMZA_PORTS_FROM = 9500;

    /**
     * The first of {@code count} ports in a row, from {@value #SAMZA_PORTS_FROM} on, that no discovery file
     * but {@code process}'s own names: where a Samza job's containers put their exporters, one port each,
     * so that two jobs on one host do not collide.
     */
    public static int portBlock(Path dir, String process, int count) {
        Set<Integer> taken = new HashSet<>();
        Path targets = dir.resolve("prometheus/targets");
        if (Files.isDirectory(targets)) {
            try (Stream<Path> files = Files.list(targets)) {
                for (Path f : files.filter(f -> f.toString().endsWith(".json")).toList()) {
                    if (!f.getFileName().toString().equals(process + ".json")) {
                        taken.addAll(ports(f));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        int base = SAMZA_PORTS_FROM;
        while (!freeBlock(taken, base, count)) {
            base++;
        }
        return base;
    }

    private static boolean freeBlock(Set<Integer> taken, int base, int count) {
        for (int port = base; port < base + count; port++) {
            if (taken.contains(port)) {
                return false;
            }
        }
        return true;
    }

    /** The ports a discovery file names. */
    private static Set<Integer> ports(Path file) throws IOException {
        Set<Integer> out = new HashSet<>();
        for (JsonNode group : JSON.readTree(file.toFile())) {
            for (JsonNode target : group.path("targets")) {
                String t = target.asText();
                out.add(Integer.parseInt(t.substring(t.lastIndexOf(':') + 1)));
            }
        }
        return out;
    }

    /**
     * The targets of one kind of process ({@code host:port}, path /metrics), labelled {@code process},
     * as a file-based discovery file; nothing is written where the cluster runs no Prometheus.
     */
    public static void targets(Path dir, String process, List<String> hostPorts) {
        targets(dir, process, hostPorts, Map.of());
    }

    /**
     * As {@link #targets(Path, String, List)}, with more labels: {@code job} in them names the series'
     * job in place of the scrape job's name (a Samza job's exporters carry no job name of their own).
     */
    public static void targets(Path dir, String process, List<String> hostPorts, Map<String, String> labels) {
        Path targets = dir.resolve("prometheus/targets");
        if (!Files.isDirectory(targets)) {
            return;
        }
        Map<String, String> all = new TreeMap<>(labels);
        all.put("process", process);
        try {
            String json = JSON.writeValueAsString(List.of(Map.of("targets", hostPorts, "labels", all))) + "\n";
            Path tmp = targets.resolve(process + ".json.tmp");
            Files.writeString(tmp, json, StandardCharsets.UTF_8);
            Files.move(tmp, targets.resolve(process + ".json"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An instant query's result vector, from the Prometheus server at {@code api} ({@code http://host:port}). */
    public static JsonNode query(URI api, String expr) throws IOException, InterruptedException {
        URI uri = api.resolve("/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
        JsonNode answer = JSON.readTree(HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString())
                .body());
        if (!"success".equals(answer.path("status").asText())) {
            throw new IOException("query " + expr + ": " + answer);
        }
        return answer.path("data").path("result");
    }
}
