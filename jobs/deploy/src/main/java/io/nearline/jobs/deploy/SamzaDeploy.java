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

import io.nearline.common.config.Namespaces;
import io.nearline.jobs.cluster.ClientProcess;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterPrometheus;
import io.nearline.jobs.cluster.PackageStore;
import io.nearline.jobs.cluster.YarnRest;
import io.nearline.jobs.kit.processes.Home;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Deploys a Samza package to YARN with Samza's own client: the package goes to the cluster's packages
 * location (HDFS, where {@code yarn.package.path} names it for the NodeManagers), its shipped config is completed
 * with the cluster's addresses and the descriptor's settings, and {@code ApplicationRunnerMain} from the
 * package's own {@code lib/} submits it through {@code YarnJobFactory}.
 */
public final class SamzaDeploy {

    private static final Pattern APP_ID = Pattern.compile("Submitted application (application_\\d+_\\d+)");

    /** The resolved job config (Samza's keys and Nearline's) and the submission. */
    public record Plan(
            Descriptor descriptor, Map<String, String> config, Path configFile, List<String> command, Path yarnConf) {

        /** Only Nearline's keys: what the job's own settings check and the topics come from. */
        Map<String, String> nearline() {
            Map<String, String> out = new LinkedHashMap<>();
            config.forEach((k, v) -> {
                if (Namespaces.isNearline(k)) {
                    out.put(k, v);
                }
            });
            return out;
        }

        /** This plan with {@code more} over its config (the config file written again; nothing unpacked). */
        Plan with(Map<String, String> more) {
            Map<String, String> merged = new LinkedHashMap<>(config);
            merged.putAll(more);
            try {
                write(configFile, merged);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new Plan(descriptor, merged, configFile, command, yarnConf);
        }
    }

    /** Samza's key for the command that starts a container, and the package's launcher that adds the exporter. */
    static final String TASK_EXECUTE = "task.execute";

    static final String EXPORTING = "bin/run-container-exporting.sh";

    private SamzaDeploy() {}

    /** The name of a Samza job's file of Prometheus targets. */
    static String targetsName(String job) {
        return "samza-" + job;
    }

    /**
     * Tells the cluster's Prometheus where {@code plan}'s containers export their metrics, when the plan
     * starts them with the exporter: one port per container from the plan's base, on the cluster's
     * address (its YARN's NodeManagers run there).
     */
    static void target(Plan plan, ClusterFile cluster) {
        String execute = plan.config().getOrDefault(TASK_EXECUTE, "");
        if (!execute.startsWith(EXPORTING + " ")) {
            return;
        }
        int base = Integer.parseInt(execute.substring(EXPORTING.length() + 1).strip());
        List<String> targets = new ArrayList<>();
        for (int i = 0; i < plan.descriptor().parallelism(); i++) {
            targets.add(cluster.address() + ":" + (base + i));
        }
        ClusterPrometheus.targets(
                cluster.dir(),
                targetsName(plan.descriptor().name()),
                targets,
                Map.of("job", plan.descriptor().name()));
    }

    /** Takes a stopped Samza application's targets out of the cluster's Prometheus (YARN names it job.name_job.id). */
    static void untarget(ClusterFile cluster, YarnRest.App app) {
        int cut = app.name().lastIndexOf('_');
        if (cut > 0) {
            ClusterPrometheus.untarget(cluster.dir(), targetsName(app.name().substring(0, cut)));
        }
    }

    /**
     * Samza settings that give a deploy of {@code plan}'s job a state of its own, named after {@code tag}:
     * a job id (so new checkpoint and coordinator topics) and a changelog topic per store. Without them a
     * job deployed again under the same name restores the last one's stores and checkpoints, as Samza
     * means it to: right for an upgrade, wrong for runs that must not see each other (the drills).
     */
    public static Map<String, String> ownState(Plan plan, String tag) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("job.id", tag);
        plan.config().forEach((k, v) -> {
            if (k.startsWith("stores.") && k.endsWith(".changelog")) {
                String store = k.substring("stores.".length(), k.length() - ".changelog".length());
                String system = v.substring(0, v.indexOf('.')); // "system.topic"
                out.put(k, system + "." + tag + "-" + store + "-changelog");
            }
        });
        return out;
    }

    public static Plan plan(Descriptor d, ClusterFile cluster, Map<String, String> overrides) {
        if (cluster.yarnConfDir() == null) {
            cluster.yarnWeb(); // the one-line error naming --yarn
        }
        PackageStore packages = cluster.packageStore();
        Path artifact = d.artifactPath(Home.dir());
        try {
            // unpacked here for Samza's client, which submits from it; uploaded by submit()
            String packaged = packages.target(artifact);
            Path client =
                    Files.createDirectories(cluster.dir().resolve("deploys")).resolve(d.name() + "-client");
            unpack(artifact, client);
            Path shipped = client.resolve(d.packageConfig());
            if (!Files.isRegularFile(shipped)) {
                throw new ClusterException(
                        artifact + " has no " + d.packageConfig() + " (set package-config in " + d.file() + ")");
            }
            Map<String, String> config = new LinkedHashMap<>(read(shipped));
            // Samza's side, pointed at this cluster: one broker, its package directory, the descriptor's name
            config.put("yarn.package.path", packaged);
            config.put("job.name", d.name());
            config.put("job.container.count", Integer.toString(d.parallelism()));
            config.put("systems.kafka.consumer.bootstrap.servers", cluster.kafkaBootstrapServers());
            config.put("systems.kafka.producer.bootstrap.servers", cluster.kafkaBootstrapServers());
            config.replaceAll((k, v) -> k.endsWith("replication.factor") ? "1" : v);
            // the metrics stream 'jobs list' reads, beside the package's own reporters
            config.putAll(SamzaMetricsStream.reporterSettings(config.get("metrics.reporters")));
            config.putAll(d.engineSettings());
            if (cluster.prometheusUrl() != null && !config.containsKey(TASK_EXECUTE)) {
                // each container with the exporter's agent, on a port of its own the cluster's Prometheus is told of
                int base = ClusterPrometheus.portBlock(cluster.dir(), targetsName(d.name()), d.parallelism());
                config.put(TASK_EXECUTE, EXPORTING + " " + base);
            }
            // Nearline's side: the cluster's addresses, then the descriptor's settings, then --set
            config.putAll(cluster.jobSettings(d.settings(), overrides));
            JobSettingsCheck.check(d, config);
            Path configFile =
                    Files.createDirectories(cluster.dir().resolve("deploys")).resolve(d.name() + ".properties");
            write(configFile, config);
            List<String> command = new ArrayList<>(List.of(
                    Home.java(),
                    "-Dlog4j.configurationFile=file:" + client.resolve("lib/log4j2.xml"),
                    "-cp",
                    cluster.yarnConfDir() + ":" + client.resolve("lib") + "/*",
                    "org.apache.samza.runtime.ApplicationRunnerMain",
                    "--config-path=" + configFile,
                    "--operation=run"));
            return new Plan(d, config, configFile, command, cluster.yarnConfDir());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Submits; returns the YARN application id. Its settings were checked when it was planned. */
    public static String submit(Plan plan, ClusterFile cluster) {
        cluster.packageStore().put(plan.descriptor().artifactPath(Home.dir()));
        ClientProcess.Result r = ClientProcess.run(
                plan.command(),
                Map.of("HADOOP_CONF_DIR", plan.yarnConf().toString(), "JAVA_HOME", System.getProperty("java.home")),
                Duration.ofMinutes(3));
        Matcher m = APP_ID.matcher(r.output());
        boolean found = m.find();
        if (r.exit() == 0 && found) {
            return m.group(1);
        }
        if (r.timedOut()) {
            if (found) {
                YarnRest.kill(cluster.yarnWeb(), m.group(1)); // nothing half-submitted stays behind
            }
            throw ClusterException.failed("Samza's submission did not complete within 3 minutes");
        }
        Optional<String> configError = configError(r.output());
        if (configError.isPresent()) {
            throw new ClusterException(configError.get());
        }
        String why = r.output()
                .lines()
                .filter(l -> l.contains("Exception") && !l.startsWith("\tat "))
                .reduce((a, b) -> b)
                .orElse(r.output().strip());
        throw ClusterException.failed("Samza's submission failed (exit " + r.exit() + "): " + why.strip());
    }

    /** The job's own refusal in the client's output, with every problem it lists (one "  - " line each). */
    static Optional<String> configError(String output) {
        List<String> lines = output.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            int at = l.indexOf("ConfigException: ");
            if (at >= 0) {
                StringBuilder message = new StringBuilder(
                        l.substring(at + "ConfigException: ".length()).strip());
                for (int j = i + 1; j < lines.size() && lines.get(j).startsWith("  - "); j++) {
                    message.append('\n').append(lines.get(j));
                }
                return Optional.of(message.toString());
            }
        }
        return Optional.empty();
    }

    /** The running application of a job name (YARN names it job.name_job.id). */
    public static Optional<YarnRest.App> running(String web, String name) {
        return YarnRest.apps(web).stream()
                .filter(a -> a.name().startsWith(name + "_"))
                .filter(a -> a.state().equals("RUNNING") || a.state().equals("ACCEPTED"))
                .findFirst();
    }

    private static void unpack(Path tarball, Path into) throws IOException {
        if (Files.exists(into)) {
            try (var files = Files.walk(into)) {
                for (Path f : files.sorted((a, b) -> b.compareTo(a)).toList()) {
                    Files.delete(f);
                }
            }
        }
        Files.createDirectories(into);
        try {
            Process p = new ProcessBuilder("tar", "xzf", tarball.toString(), "-C", into.toString())
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw ClusterException.failed("cannot unpack " + tarball + ": " + out.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted");
        }
    }

    static Map<String, String> read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        Map<String, String> out = new TreeMap<>();
        p.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
        return out;
    }

    private static void write(Path file, Map<String, String> config) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(
                    "# Written by 'nearline deploy': the package's config, this cluster's addresses, the descriptor's settings.\n");
            for (Map.Entry<String, String> e : new TreeMap<>(config).entrySet()) {
                w.write(e.getKey() + "=" + e.getValue() + "\n");
            }
        }
    }
}
