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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * A deploy descriptor ({@code jobs/deploy/*.yaml}): which job, on which engine and target, from which
 * artifact, with what parallelism, Nearline settings, engine settings and restore policy. Every key is
 * checked; a misspelt one fails with the nearest known key.
 */
public record Descriptor(
        Path file,
        String name,
        String job,
        String engine,
        String target,
        String artifact,
        String entryClass,
        String packageConfig,
        int parallelism,
        Restore restore,
        Map<String, String> settings,
        Map<String, String> engineSettings,
        Map<String, String> kubernetes) {

    /** What a deploy does about state: start fresh, or from the savepoint a deploy is given (or an upgrade takes). */
    public enum Restore {
        NONE,
        SAVEPOINT
    }

    static final Set<String> KEYS = Set.of(
            "name",
            "job",
            "engine",
            "target",
            "package-config",
            "artifact",
            "entry-class",
            "parallelism",
            "restore",
            "settings",
            "engine-settings",
            "kubernetes");
    /** The keys of a descriptor's {@code kubernetes:} section ({@link KubernetesDeploy}). */
    static final Set<String> KUBERNETES_KEYS = Set.of(
            "image", "jar-uri", "session", "secret", "namespace", "service-account", "connect-cluster", "plugin-url");

    static final Set<String> JOBS =
            Set.of("cache-updater", "bootstrapper", "tracking-join", "debezium-postgres", "debezium-mysql", "verifier");
    /** engine:target pairs this version deploys. */
    static final Set<String> TARGETS = Set.of(
            "flink:flink-session",
            "flink:yarn",
            "flink:kubernetes",
            "samza:yarn",
            "connect:connect",
            "connect:kubernetes",
            "process:process");

    public static Descriptor read(Path file) {
        Map<String, Object> y = yaml(file);
        refuseUnknown(file, y.keySet(), KEYS, "", "a descriptor");
        String job = required(file, y, "job");
        if (!JOBS.contains(job)) {
            throw new ClusterException(file + ": job '" + job + "' is not one of " + JOBS);
        }
        String engine = required(file, y, "engine");
        String target = required(file, y, "target");
        checkTarget(file, engine, target);
        if (job.startsWith("debezium-") && !engine.equals("connect")
                || engine.equals("connect") && !job.startsWith("debezium-") && !job.equals("cache-updater")) {
            throw new ClusterException(file + ": job '" + job + "' runs on "
                    + (job.startsWith("debezium-")
                            ? "engine connect (a Kafka Connect connector)"
                            : "flink or samza (of the jobs, only the cache updater is also a Kafka Connect sink)"));
        }
        if (job.equals("verifier") != engine.equals("process")) {
            throw new ClusterException(file + ": "
                    + (job.equals("verifier")
                            ? "the verifier runs as a process beside the cluster: engine: process, target: process"
                            : "engine process runs the verifier only (job: verifier)"));
        }
        if (engine.equals("samza") && job.equals("bootstrapper")) {
            throw new ClusterException(file + ": on Samza the bootstrapper runs inside the cache updater: deploy job "
                    + "cache-updater with bootstrap.enabled: true");
        }
        return new Descriptor(
                file,
                String.valueOf(y.getOrDefault("name", "nearline-" + job)),
                job,
                engine,
                target,
                // a connector's plugin is on the worker's plugin path, the verifier is in the tools: no artifact
                engine.equals("connect") || engine.equals("process")
                        ? String.valueOf(y.getOrDefault("artifact", ""))
                        : required(file, y, "artifact"),
                y.get("entry-class") == null ? null : String.valueOf(y.get("entry-class")),
                String.valueOf(y.getOrDefault("package-config", "config/" + job + ".properties")),
                parallelism(file, y),
                restore(file, y),
                strings(file, y, "settings"),
                strings(file, y, "engine-settings"),
                kubernetes(file, y));
    }

    /** This descriptor deployed to {@code other} instead of its own target ({@code deploy --target}). */
    public Descriptor withTarget(String other) {
        checkTarget(file, engine, other);
        return new Descriptor(
                file,
                name,
                job,
                engine,
                other,
                artifact,
                entryClass,
                packageConfig,
                parallelism,
                restore,
                settings,
                engineSettings,
                kubernetes);
    }

    private static void checkTarget(Path file, String engine, String target) {
        if (engine.equals("samza") && target.equals("kubernetes")) {
            throw new ClusterException(file + ": Samza has no released, maintained Kubernetes support, so the Samza "
                    + "jobs deploy to YARN (target: yarn); on Kubernetes run the job on Flink");
        }
        if (engine.equals("process") && !target.equals("process")) {
            throw new ClusterException(file + ": the verifier runs from Nearline's tools as a process beside the "
                    + "cluster it checks (target: process); it has no image or package to deploy to " + target);
        }
        if (!TARGETS.contains(engine + ":" + target)) {
            throw new ClusterException(file + ": engine '" + engine + "' with target '" + target
                    + "' cannot be deployed by this version; it deploys flink to flink-session, yarn or kubernetes, "
                    + "samza to yarn, connect to connect or kubernetes, "
                    + "process (the verifier) to process");
        }
    }

    /** The {@code kubernetes:} section: every key checked, as the descriptor's own. */
    private static Map<String, String> kubernetes(Path file, Map<String, Object> y) {
        Map<String, String> k = strings(file, y, "kubernetes");
        refuseUnknown(file, k.keySet(), KUBERNETES_KEYS, "kubernetes.", "the kubernetes section");
        return k;
    }

    /** A key not in {@code known} fails, naming the nearest known key and every one {@code what} takes. */
    private static void refuseUnknown(Path file, Set<String> keys, Set<String> known, String prefix, String what) {
        for (String key : keys) {
            if (!known.contains(key)) {
                throw new ClusterException(file + ": unknown key '" + prefix + key + "'"
                        + Config.closest(key, known)
                                .map(c -> " (did you mean '" + prefix + c + "'?)")
                                .orElse("")
                        + "; " + what + " takes " + String.join(", ", List.copyOf(new TreeSet<>(known))));
            }
        }
    }

    /** The descriptor file as a YAML mapping; anything else is the user's mistake, named. */
    private static Map<String, Object> yaml(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ClusterException("no descriptor " + file + " (the shipped ones are in jobs/deploy/)");
        }
        Object loaded;
        try {
            loaded = new Yaml(new SafeConstructor(new LoaderOptions()))
                    .load(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            throw new ClusterException(file + " is not valid YAML: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
        if (!(loaded instanceof Map<?, ?>)) {
            throw new ClusterException(file + ": a descriptor is a YAML mapping (name:, job:, engine:, target:, ...)");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> y = (Map<String, Object>) loaded;
        return y;
    }

    private static int parallelism(Path file, Map<String, Object> y) {
        int parallelism;
        try {
            parallelism = Integer.parseInt(String.valueOf(y.getOrDefault("parallelism", "1")));
        } catch (NumberFormatException e) {
            throw new ClusterException(file + ": parallelism must be a whole number, got " + y.get("parallelism"));
        }
        if (parallelism < 1) {
            throw new ClusterException(file + ": parallelism must be >= 1, got " + parallelism);
        }
        return parallelism;
    }

    private static Restore restore(Path file, Map<String, Object> y) {
        try {
            return Restore.valueOf(String.valueOf(y.getOrDefault("restore", "savepoint"))
                    .toUpperCase()
                    .replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new ClusterException(file + ": restore must be none or savepoint, got " + y.get("restore"));
        }
    }

    private static String required(Path file, Map<String, Object> y, String key) {
        Object v = y.get(key);
        if (v == null || String.valueOf(v).isBlank()) {
            throw new ClusterException(file + ": '" + key + "' is required");
        }
        return String.valueOf(v);
    }

    private static Map<String, String> strings(Path file, Map<String, Object> y, String key) {
        Object v = y.get(key);
        if (v == null) {
            return Map.of();
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw new ClusterException(file + ": '" + key + "' must be a mapping of key: value");
        }
        Map<String, String> out = new LinkedHashMap<>();
        m.forEach((k, val) -> out.put(String.valueOf(k), String.valueOf(val)));
        return out;
    }

    /** The artifact: absolute, or relative to the built artifacts ({@code jobs/target/dist}). */
    public Path artifactPath(Path home) {
        Path p = Path.of(artifact);
        Path resolved = p.isAbsolute() ? p : home.resolve("jobs/target/dist").resolve(p);
        if (!Files.isRegularFile(resolved)) {
            throw new ClusterException(
                    "artifact " + resolved + " is missing: build it with ./mvnw package -DskipTests");
        }
        return resolved;
    }
}
