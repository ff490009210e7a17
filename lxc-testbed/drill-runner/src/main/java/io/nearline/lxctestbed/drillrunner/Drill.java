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
package io.nearline.lxctestbed.drillrunner;

import io.nearline.common.config.ValueType;
import io.nearline.jobs.cluster.ClusterException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * A drill file ({@code lxc-testbed/drills/NAME.yaml}): what it does to the testbed while a job runs
 * under load, when, for how long, and what it expects. Every key is checked; a misspelt one fails
 * naming the keys there are.
 *
 * @param loadRate changes (or requests) per second sent while the load runs, where no baseline of the
 *     job was measured (with one, a share of it: {@link Baseline})
 * @param loadSeconds how long the load runs; the faults fall inside it
 * @param drain how long the job may take to catch up once the load and the faults are over
 * @param detectWithin the system under test must show the fault's sign (a node LOST...) this soon, or null
 */
public record Drill(
        String name,
        String description,
        List<String> jobs,
        int loadRate,
        int loadSeconds,
        List<Fault> faults,
        Duration drain,
        Duration detectWithin) {

    /** The same drill at another load rate (a share of the job's measured baseline). */
    public Drill withLoadRate(int rate) {
        return new Drill(name, description, jobs, rate, loadSeconds, faults, drain, detectWithin);
    }

    /** The drills' folder, under the project's home. */
    public static final String FOLDER = "lxc-testbed/drills";

    private static final Set<String> KEYS = Set.of("description", "jobs", "load", "faults", "drain", "expect");
    private static final Set<String> LOAD_KEYS = Set.of("rate", "seconds");
    private static final Set<String> FAULT_KEYS = Set.of("kind", "at", "for", "bandwidth", "loss", "delay");
    private static final Set<String> EXPECT_KEYS = Set.of("detected-within");
    private static final Set<String> JOBS = Set.of("cache-updater", "tracking-join");

    /**
     * One fault of the schedule: {@code kind} applied {@code at} into the load and healed {@code
     * lasting} later (zero for faults that heal themselves, such as a killed container).
     */
    public record Fault(Kind kind, Duration at, Duration lasting, String bandwidth, int lossPercent, Duration delay) {}

    /** The catalogue. */
    public enum Kind {
        KILL_NODE,
        PAUSE_NODE,
        KILL_CONTAINER,
        KILL_AM,
        PARTITION_NODE,
        PARTITION_STORE,
        SLOW_LINK,
        LOSSY_LINK,
        DELAYED_LINK,
        BROKER_RESTART,
        STORE_OUTAGE;

        public String label() {
            return name().toLowerCase().replace('_', '-');
        }

        static Kind of(String label, Path file) {
            for (Kind k : values()) {
                if (k.label().equals(label)) {
                    return k;
                }
            }
            throw new ClusterException(file + ": no fault kind '" + label + "' (kinds: "
                    + Stream.of(values()).map(Kind::label).toList() + ")");
        }

        /** Whether YARN notices this fault by a node going LOST. */
        public boolean losesNode() {
            return this == KILL_NODE || this == PAUSE_NODE || this == PARTITION_NODE;
        }
    }

    /** Every drill in {@code folder}, by name. */
    public static List<Drill> all(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(f -> f.toString().endsWith(".yaml"))
                    .sorted()
                    .map(Drill::read)
                    .toList();
        } catch (IOException e) {
            throw new ClusterException("cannot list the drills in " + folder + ": " + e.getMessage());
        }
    }

    /** The drill {@code name} in {@code folder}. */
    public static Drill named(Path folder, String name) {
        Path file = folder.resolve(name + ".yaml");
        if (!Files.isRegularFile(file)) {
            throw new ClusterException("no drill '" + name + "' in " + folder + " (drills: "
                    + all(folder).stream().map(Drill::name).toList() + "; 'bin/nearline drill list')");
        }
        return read(file);
    }

    static Drill read(Path file) {
        Map<String, Object> y = mapping(file, load(file), "the drill", KEYS);
        String name = file.getFileName().toString().replaceFirst("\\.yaml$", "");
        List<String> jobs = new ArrayList<>();
        for (Object job : list(file, y.getOrDefault("jobs", List.of("cache-updater")), "jobs")) {
            if (!JOBS.contains(String.valueOf(job))) {
                throw new ClusterException(file + ": jobs: '" + job + "' is not a job drills run (jobs: " + JOBS + ")");
            }
            jobs.add(String.valueOf(job));
        }
        Map<String, Object> load = mapping(file, y.get("load"), "load", LOAD_KEYS);
        List<Fault> faults = new ArrayList<>();
        for (Object f : list(file, y.get("faults"), "faults")) {
            Map<String, Object> m = mapping(file, f, "a fault", FAULT_KEYS);
            String loss =
                    String.valueOf(m.getOrDefault("loss", "0")).replace("%", "").strip();
            faults.add(new Fault(
                    Kind.of(String.valueOf(m.get("kind")), file),
                    duration(file, m, "at", null),
                    duration(file, m, "for", "0s"),
                    m.get("bandwidth") == null ? null : String.valueOf(m.get("bandwidth")),
                    Integer.parseInt(loss),
                    duration(file, m, "delay", "0s")));
        }
        if (faults.isEmpty()) {
            throw new ClusterException(file + ": faults: give at least one (kind:, at:, for:)");
        }
        Map<String, Object> expect = mapping(file, y.getOrDefault("expect", Map.of()), "expect", EXPECT_KEYS);
        Drill d = new Drill(
                name,
                String.valueOf(y.getOrDefault("description", "")).strip(),
                List.copyOf(jobs),
                ((Number) load.getOrDefault("rate", 200)).intValue(),
                ((Number) load.getOrDefault("seconds", 90)).intValue(),
                List.copyOf(faults),
                duration(file, y, "drain", "180s"),
                expect.containsKey("detected-within") ? duration(file, expect, "detected-within", null) : null);
        for (Fault f : d.faults) {
            if (f.at().plus(f.lasting()).toSeconds() >= d.loadSeconds) {
                throw new ClusterException(file + ": the " + f.kind().label() + " fault (at " + f.at().toSeconds()
                        + " s for " + f.lasting().toSeconds() + " s) must be over before the load ends at "
                        + d.loadSeconds + " s");
            }
        }
        return d;
    }

    private static Object load(Path file) {
        try {
            return new Yaml(new SafeConstructor(new LoaderOptions()))
                    .load(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            throw new ClusterException(file + " is not valid YAML: "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
    }

    private static Map<String, Object> mapping(Path file, Object o, String what, Set<String> keys) {
        if (!(o instanceof Map<?, ?> m)) {
            throw new ClusterException(file + ": " + what + " must be a mapping with keys " + keys);
        }
        for (Object key : m.keySet()) {
            if (!keys.contains(String.valueOf(key))) {
                throw new ClusterException(file + ": unknown key '" + key + "' in " + what + " (keys: " + keys + ")");
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> out = (Map<String, Object>) m;
        return out;
    }

    private static List<?> list(Path file, Object o, String key) {
        if (!(o instanceof List<?> l)) {
            throw new ClusterException(file + ": " + key + " must be a list");
        }
        return l;
    }

    private static Duration duration(Path file, Map<String, Object> m, String key, String fallback) {
        Object v = m.getOrDefault(key, fallback);
        if (v == null) {
            throw new ClusterException(file + ": '" + key + "' is required (a duration such as 30s)");
        }
        try {
            return ValueType.DURATION.parse(String.valueOf(v));
        } catch (RuntimeException e) {
            throw new ClusterException(file + ": " + key + ": '" + v + "' is not a duration such as 30s or 2m");
        }
    }
}
