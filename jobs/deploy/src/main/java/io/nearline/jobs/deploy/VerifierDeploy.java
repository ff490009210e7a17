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

import io.nearline.common.config.Config;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterPrometheus;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.kit.processes.Home;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The verifier deployed ({@code job: verifier}, {@code target: process}): {@code nearline verify} as a
 * long-lived process beside the cluster it checks, started from the tools' jar on the machine that runs
 * the deploy, its pid kept in the cluster's directory ({@link Daemons#servicePid}) so that {@code jobs
 * stop verifier:NAME} and {@code cluster down} end exactly it. Its Prometheus endpoint is named in the
 * cluster's discovery files under the descriptor's name, which labels its series {@code job}.
 */
final class VerifierDeploy {

    static final String ID_PREFIX = "verifier:";

    /** The descriptor's settings that are {@code verify}'s options; a key with a dot is a job setting for --repair. */
    static final Set<String> OPTIONS = Set.of(
            "source", "store", "every", "in-flight", "keys-per-round", "metrics-port", "repair", "watermark-topic");

    /** The line the verifier prints once a round is done: the database, the cache and its endpoint all worked. */
    private static final String READY = "  round:";

    private VerifierDeploy() {}

    /** The verifier's command line: the tools' jar, marked as the cluster's, with the descriptor's options. */
    static List<String> command(Descriptor d, ClusterFile c, Map<String, String> overrides, Path home) {
        Map<String, String> settings = new LinkedHashMap<>(d.settings());
        settings.putAll(overrides);
        if (!settings.containsKey("source")) {
            throw new ClusterException(d.file() + ": the verifier needs settings.source: postgres or mysql (the "
                    + "cluster file's section it reads)");
        }
        List<String> command = new ArrayList<>(List.of(
                Home.java(),
                "-Xmx512m",
                Daemons.marker(c.dir()),
                "-Dnearline.home=" + home,
                "-jar",
                Home.toolsJar(home).toString(),
                "verify",
                "--cluster",
                c.dir().toString(),
                "--name",
                d.name()));
        settings.forEach((key, value) -> {
            if (key.contains(".")) {
                command.addAll(List.of("--set", key + "=" + value));
            } else if (!OPTIONS.contains(key)) {
                throw new ClusterException(d.file() + ": unknown verifier setting '" + key + "'"
                        + Config.closest(key, OPTIONS)
                                .map(k -> " (did you mean '" + k + "'?)")
                                .orElse("")
                        + "; it takes " + String.join(", ", new TreeSet<>(OPTIONS))
                        + ", and the cache updater's settings (with a dot) for --repair");
            } else if (key.equals("repair")) {
                if (Boolean.parseBoolean(value)) {
                    command.add("--repair");
                }
            } else {
                command.addAll(List.of("--" + key, value));
            }
        });
        return command;
    }

    static int deploy(Descriptor d, ClusterFile c, Map<String, String> overrides, boolean dryRun) {
        Path home = Home.dir();
        List<String> command = command(d, c, overrides, home);
        if (dryRun) {
            System.out.println("deploy " + d.name() + " (the verifier) beside the cluster in " + c.dir()
                    + " (dry run: nothing started)");
            System.out.println("  " + String.join(" ", command));
            return 0;
        }
        if (!Files.isRegularFile(Home.toolsJar(home))) {
            throw new ClusterException(
                    Home.toolsJar(home) + " is missing: build the tools with ./mvnw package -DskipTests");
        }
        if (running(c, d.name()).isPresent()) {
            throw new ClusterException(d.name() + " already runs beside " + c.dir() + ": 'bin/nearline jobs stop "
                    + ID_PREFIX + d.name() + " --cluster " + c.dir() + "' first, or 'jobs upgrade'");
        }
        long pid = Daemons.start(c.dir(), d.name(), command);
        write(Daemons.servicePid(c.dir(), d.name()), Long.toString(pid));
        awaitFirstRound(c.dir(), d.name(), pid);
        System.out.println("deployed " + d.name() + " (the verifier) as process " + pid + " beside " + c.dir());
        System.out.println("  log      " + Daemons.log(c.dir(), d.name()));
        System.out.println("  metrics  nearline_verify_checked_total, nearline_verify_divergent{job=\"" + d.name()
                + "\"}" + (c.prometheusUrl() == null ? "" : " on " + c.prometheusUrl()));
        System.out.println("  stop     bin/nearline jobs stop " + ID_PREFIX + d.name() + " --cluster " + c.dir());
        return 0;
    }

    /**
     * Waits for the verifier's first round. One that exits first did not start: a bad setting (the
     * verifier's own exit 2) is named in one line, anything else with its log's end.
     */
    private static void awaitFirstRound(Path dir, String name, long pid) {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (Daemons.readyLine(dir, name, READY).isEmpty()) {
            if (!Daemons.alive(pid, dir)) {
                Daemons.servicePid(dir, name).toFile().delete();
                Optional<String> error = Daemons.readyLine(dir, name, "error: ");
                throw error.map(line -> new ClusterException(name + " did not start: " + line))
                        .orElseGet(() -> ClusterException.failed(
                                name + " ended before its first round; its log: " + Daemons.log(dir, name)));
            }
            if (System.nanoTime() > deadline) {
                throw ClusterException.failed(name + " has not finished a round in 2 minutes (it runs on, pid " + pid
                        + "); its log: " + Daemons.log(dir, name));
            }
            Daemons.sleep(200);
        }
    }

    /** The verifier {@code name}'s pid while it runs beside the cluster. */
    static Optional<Long> running(ClusterFile c, String name) {
        Long pid = Daemons.services(c.dir()).get(name);
        return pid != null && Daemons.alive(pid, c.dir()) ? Optional.of(pid) : Optional.empty();
    }

    /** Each verifier deployed beside the cluster: id, name, state. */
    static List<String[]> list(ClusterFile c) {
        List<String[]> rows = new ArrayList<>();
        Daemons.services(c.dir())
                .forEach((name, pid) -> rows.add(
                        new String[] {ID_PREFIX + name, name, Daemons.alive(pid, c.dir()) ? "RUNNING" : "ENDED"}));
        return rows;
    }

    /** Stops the verifier {@code name} and takes its endpoint out of the cluster's discovery files. */
    static int stop(ClusterFile c, String name) {
        Long pid = Daemons.services(c.dir()).get(name);
        if (pid == null) {
            throw new ClusterException("no verifier named " + name + " beside " + c.dir() + " (see 'bin/nearline jobs "
                    + "list --cluster " + c.dir() + "')");
        }
        List<String> stopped = Daemons.stop(c.dir(), Map.of(name, pid), Duration.ofSeconds(10));
        ClusterPrometheus.untarget(c.dir(), name);
        Daemons.servicePid(c.dir(), name).toFile().delete();
        System.out.println((stopped.isEmpty() ? "removed " + name + " (it had ended)" : "stopped " + name)
                + "; its log stays: " + Daemons.log(c.dir(), name));
        return 0;
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
