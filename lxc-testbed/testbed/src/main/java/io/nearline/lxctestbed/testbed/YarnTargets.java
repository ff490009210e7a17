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
package io.nearline.lxctestbed.testbed;

import io.nearline.jobs.cluster.ClusterPrometheus;
import io.nearline.jobs.cluster.YarnRest;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The testbed's Prometheus targets, following YARN. On the testbed YARN places a job's containers on
 * the LXC nodes, and places them again elsewhere when a node is lost, so no file written at deploy time
 * can say where their exporters listen. Each pass asks every running NodeManager which containers it
 * runs, and looks on those nodes at the ports an application's exporters use: a Samza job's block (from
 * the config its deploy wrote, {@code task.execute=bin/run-container-exporting.sh BASE}), Flink's
 * reporter range (from {@code jobs/flink-conf/config.yaml}). What answers on {@code /metrics} becomes
 * the application's discovery file; a node that does not answer (cut off, frozen) keeps the targets it
 * had, which Prometheus then shows down, as they are. Files of applications that ended are removed.
 */
final class YarnTargets {

    /** Its name among the testbed's processes. */
    static final String PROCESS = "yarn-targets";

    static final Duration EVERY = Duration.ofSeconds(5);

    private static final Set<String> LIVE = Set.of("NEW", "NEW_SAVING", "SUBMITTED", "ACCEPTED", "RUNNING");
    private static final String EXPORTING = "bin/run-container-exporting.sh ";
    private static final Pattern FLINK_PORTS =
            Pattern.compile("(?m)^metrics\\.reporter\\.prom\\.port:\\s*(\\d+)-(\\d+)\\s*$");
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    /** The exporters of one application: its discovery file's name, its labels, the ports to look at. */
    record Exporters(String file, Map<String, String> labels, List<Integer> ports) {}

    private final Path dir;
    private final String yarnWeb;
    private final List<Integer> flinkPorts;
    // what the last pass wrote, by file: kept for a node that does not answer
    private final Map<String, List<String>> last = new TreeMap<>();

    YarnTargets(Path dir, String yarnWeb, Path home) {
        this.dir = dir;
        this.yarnWeb = yarnWeb;
        this.flinkPorts = flinkPorts(home.resolve("jobs/flink-conf/config.yaml"));
    }

    /** One pass over YARN; returns the files whose targets changed, with their targets. */
    Map<String, List<String>> pass() {
        Map<String, Set<String>> hostsByApp = new TreeMap<>();
        Set<String> silent = new TreeSet<>();
        YarnRest.nodeWebs(yarnWeb).forEach((host, web) -> YarnRest.runningContainers(web, Duration.ofSeconds(2))
                .ifPresentOrElse(
                        ids -> ids.forEach(id -> hostsByApp
                                .computeIfAbsent(YarnRest.applicationOf(id), a -> new TreeSet<>())
                                .add(host)),
                        () -> silent.add(host)));
        Map<String, List<String>> changed = new TreeMap<>();
        Set<String> liveFiles = new TreeSet<>();
        for (YarnRest.App app : YarnRest.apps(yarnWeb)) {
            Optional<Exporters> exporters = LIVE.contains(app.state()) ? exporters(app) : Optional.empty();
            if (exporters.isEmpty()) {
                continue;
            }
            Exporters e = exporters.get();
            liveFiles.add(e.file());
            List<String> found = new ArrayList<>();
            for (String host : hostsByApp.getOrDefault(app.id(), Set.of())) {
                e.ports().stream()
                        .map(port -> host + ":" + port)
                        .filter(YarnTargets::answers)
                        .forEach(found::add);
            }
            last.getOrDefault(e.file(), List.of()).stream()
                    .filter(t -> silent.contains(t.substring(0, t.lastIndexOf(':'))) && !found.contains(t))
                    .forEach(found::add);
            if (!found.isEmpty() && !found.equals(last.get(e.file()))) {
                ClusterPrometheus.targets(dir, e.file(), found, e.labels());
                last.put(e.file(), found);
                changed.put(e.file(), found);
            }
        }
        for (String file : ownFiles()) {
            if (!liveFiles.contains(file)) {
                ClusterPrometheus.untarget(dir, file);
                last.remove(file);
                changed.put(file, List.of());
            }
        }
        return changed;
    }

    /** What an application exports, if anything: a Samza job deployed with its exporters, or Flink. */
    Optional<Exporters> exporters(YarnRest.App app) {
        if (app.type().equals("Apache Flink")) {
            return Optional.of(new Exporters("flink-" + app.id(), Map.of(), flinkPorts));
        }
        int cut = app.name().lastIndexOf('_'); // YARN names a Samza job job.name_job.id
        if (!app.type().equals("Samza") || cut < 1) {
            return Optional.empty();
        }
        String job = app.name().substring(0, cut);
        Path deployed = dir.resolve("deploys").resolve(job + ".properties");
        if (!Files.isRegularFile(deployed)) {
            return Optional.empty();
        }
        Properties config = new Properties();
        try (Reader r = Files.newBufferedReader(deployed)) {
            config.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String execute = config.getProperty("task.execute", "");
        if (!execute.startsWith(EXPORTING)) {
            return Optional.empty();
        }
        int base = Integer.parseInt(execute.substring(EXPORTING.length()).strip());
        int containers =
                Integer.parseInt(config.getProperty("job.container.count", "1").strip());
        return Optional.of(new Exporters(
                "samza-" + job,
                Map.of("job", job),
                IntStream.range(base, base + containers).boxed().toList()));
    }

    /** The discovery files this follower writes: one per Samza job or Flink application. */
    private List<String> ownFiles() {
        Path targets = dir.resolve("prometheus/targets");
        if (!Files.isDirectory(targets)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(targets)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(f -> f.endsWith(".json") && (f.startsWith("samza-") || f.startsWith("flink-application_")))
                    .map(f -> f.substring(0, f.length() - ".json".length()))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether an exporter answers at {@code host:port} (a second to connect, two to answer). */
    static boolean answers(String hostPort) {
        try {
            HttpResponse<Void> r = HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://" + hostPort + "/metrics"))
                            .timeout(Duration.ofSeconds(2))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            return r.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The range Flink's Prometheus reporter takes its port from, as the jobs' Flink config sets it. */
    static List<Integer> flinkPorts(Path flinkConfig) {
        try {
            Matcher m = FLINK_PORTS.matcher(Files.readString(flinkConfig));
            if (!m.find()) {
                throw new IllegalStateException(flinkConfig + " sets no port range for Flink's Prometheus reporter");
            }
            return IntStream.rangeClosed(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)))
                    .boxed()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
