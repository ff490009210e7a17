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
package io.nearline.common.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Raw configuration values by key, read from a {@code .properties} or YAML file (nested YAML maps
 * become dotted keys) plus overrides, and typed access through {@link ConfigKey}s. Immutable.
 */
public final class Config {

    private final Map<String, String> values;

    private Config(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(new TreeMap<>(values));
    }

    public static Config of(Map<String, String> values) {
        return new Config(values);
    }

    /**
     * A job's command line: {@code --config FILE} (.properties or .yaml) and any number of
     * {@code --set key=value} overrides, applied in order after the file.
     */
    public static Config fromArgs(String[] args) {
        Config config = empty();
        Map<String, String> sets = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            boolean hasValue = i + 1 < args.length;
            switch (args[i]) {
                case "--config" -> config = load(Path.of(hasValue ? args[++i] : missing("--config FILE")));
                case "--set" -> {
                    String[] kv = (hasValue ? args[++i] : missing("--set key=value")).split("=", 2);
                    sets.put(kv[0], kv.length > 1 ? kv[1] : "");
                }
                default ->
                    throw new IllegalArgumentException(
                            "unknown argument " + args[i] + "; usage: --config FILE [--set key=value ...]");
            }
        }
        return config.withOverrides(sets);
    }

    private static String missing(String usage) {
        throw new IllegalArgumentException("missing value; usage: " + usage);
    }

    public static Config empty() {
        return new Config(Map.of());
    }

    /** Loads {@code .properties}, {@code .yaml} or {@code .yml}; a missing or unreadable file is a {@link ConfigException}. */
    public static Config load(Path file) {
        String name = file.getFileName().toString().toLowerCase();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            if (name.endsWith(".yaml") || name.endsWith(".yml")) {
                Object root = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
                Map<String, String> flat = new TreeMap<>();
                if (root != null) {
                    if (!(root instanceof Map<?, ?> map)) {
                        throw new ConfigException(file + ": expected a YAML map of settings at the top level");
                    }
                    flatten("", map, flat);
                }
                return new Config(flat);
            }
            Properties props = new Properties();
            props.load(reader);
            Map<String, String> flat = new TreeMap<>();
            props.stringPropertyNames().forEach(k -> flat.put(k, props.getProperty(k)));
            return new Config(flat);
        } catch (NoSuchFileException e) {
            throw new ConfigException("configuration file " + file + " does not exist: check the path");
        } catch (IOException | RuntimeException e) {
            if (e instanceof ConfigException ce) {
                throw ce;
            }
            throw new ConfigException("cannot read configuration file " + file + ": " + e.getMessage());
        }
    }

    private static void flatten(String prefix, Map<?, ?> map, Map<String, String> out) {
        map.forEach((k, v) -> {
            String key = prefix + k;
            if (v instanceof Map<?, ?> nested) {
                flatten(key + ".", nested, out);
            } else if (v instanceof List<?> list) {
                out.put(key, list.stream().map(String::valueOf).collect(Collectors.joining(",")));
            } else if (v != null) {
                out.put(key, String.valueOf(v));
            }
        });
    }

    /** This configuration with {@code overrides} taking precedence. */
    public Config withOverrides(Map<String, String> overrides) {
        Map<String, String> merged = new TreeMap<>(values);
        merged.putAll(overrides);
        return new Config(merged);
    }

    public Map<String, String> asMap() {
        return values;
    }

    public Optional<String> raw(String key) {
        return Optional.ofNullable(values.get(key));
    }

    public boolean isSet(ConfigKey<?> key) {
        return values.containsKey(key.name());
    }

    /** What the keys set here fill the placeholder of {@code pattern} with, in key order. */
    public List<String> instances(ConfigKey<?> pattern) {
        return values.keySet().stream()
                .map(pattern::partOf)
                .filter(Objects::nonNull)
                .toList();
    }

    /** The typed value, or the key's default; a bad or missing required value is a {@link ConfigException}. */
    public <T> T get(ConfigKey<T> key) {
        String problem = problemWith(key);
        if (problem != null) {
            throw new ConfigException(problem);
        }
        String text = values.get(key.name());
        return text == null ? key.defaultValue() : key.type().parse(text);
    }

    /**
     * Checks the keys of {@code defs} (types, checks, required keys) and their invariants, reporting all
     * problems at once. A component validates its own keys; an entry point that knows every component
     * uses {@link #validateComplete} so that typos are caught too.
     */
    public Config validate(ConfigDef... defs) {
        List<String> problems = valueProblems(defs);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return this;
    }

    /**
     * {@link #validate}, and no unknown key in Nearline's namespaces: a key whose first segment is
     * the namespace of one of {@code defs} must be one of their keys ({@code cache.tll} next to a
     * declared {@code cache.ttl} is an error with a suggestion), and a key whose namespace is one edit
     * away from one of {@link Namespaces#NEARLINE} is taken for a misspelt one ({@code cahce.ttl}).
     * Keys of other namespaces (an engine's own) pass through. Call it where every component's
     * settings are known: a job's entry point.
     */
    public Config validateComplete(ConfigDef... defs) {
        List<String> problems = valueProblems(defs);
        Set<String> known = new HashSet<>();
        Set<String> namespaces = new HashSet<>();
        List<ConfigKey<?>> patterns = new ArrayList<>();
        for (ConfigDef def : defs) {
            for (ConfigKey<?> key : def.keys()) {
                known.add(key.name());
                namespaces.add(Namespaces.of(key.name()));
                if (key.isPattern()) {
                    patterns.add(key);
                }
            }
        }
        for (String name : values.keySet()) {
            String ns = Namespaces.of(name);
            if (known.contains(name) || patterns.stream().anyMatch(p -> p.partOf(name) != null)) {
                continue;
            }
            if (namespaces.contains(ns)) {
                String hint = closest(name, known)
                        .map(k -> " Did you mean '" + k + "'?")
                        .orElse("");
                problems.add("unknown key '" + name + "'." + hint);
            } else {
                Namespaces.misspelt(ns)
                        .ifPresent(meant -> problems.add(
                                "unknown key '" + name + "': '" + ns + "' is not a settings namespace. Did you mean '"
                                        + meant + name.substring(ns.length()) + "'?"));
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return this;
    }

    private List<String> valueProblems(ConfigDef... defs) {
        List<String> problems = new ArrayList<>();
        for (ConfigDef def : defs) {
            for (ConfigKey<?> key : def.keys()) {
                List<ConfigKey<?>> concrete = key.isPattern()
                        ? instances(key).stream().<ConfigKey<?>>map(key::at).toList()
                        : List.of(key);
                for (ConfigKey<?> k : concrete) {
                    String problem = problemWith(k);
                    if (problem != null) {
                        problems.add(problem);
                    }
                }
            }
        }
        if (problems.isEmpty()) {
            for (ConfigDef def : defs) {
                for (ConfigDef.Invariant invariant : def.invariants()) {
                    if (!invariant.holds().test(this)) {
                        problems.add(invariant.problem());
                    }
                }
            }
        }
        return problems;
    }

    private <T> String problemWith(ConfigKey<T> key) {
        String text = values.get(key.name());
        if (text == null) {
            return key.isRequired()
                    ? "'" + key.name() + "' is required: set it to " + key.expectation() + " (" + key.description()
                            + ")"
                    : null;
        }
        // a secret given in place of its reference is not repeated into the error (a terminal, a log)
        String shown = key.type() == ValueType.SECRET ? "(hidden)" : "'" + text + "'";
        T value;
        try {
            value = key.type().parse(text);
        } catch (RuntimeException e) {
            return "'" + key.name() + "' = " + shown + " is not valid: expected " + key.expectation() + ".";
        }
        if (!key.check().test().test(value)) {
            return "'" + key.name() + "' = " + shown + " is not valid: it "
                    + key.check().requirement() + ".";
        }
        return null;
    }

    /** The known key nearest to {@code name}; ties go to the longer shared prefix, then alphabetical order. */
    public static Optional<String> closest(String name, Set<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        int bestPrefix = -1;
        for (String candidate : new TreeSet<>(known)) {
            int d = editDistance(name, candidate);
            int prefix = commonPrefix(name, candidate);
            if (d < bestDistance || (d == bestDistance && prefix > bestPrefix)) {
                bestDistance = d;
                bestPrefix = prefix;
                best = candidate;
            }
        }
        return bestDistance <= Math.max(2, name.length() / 4) ? Optional.ofNullable(best) : Optional.empty();
    }

    private static int commonPrefix(String a, String b) {
        int n = 0;
        while (n < a.length() && n < b.length() && a.charAt(n) == b.charAt(n)) {
            n++;
        }
        return n;
    }

    /** Edits (insert, delete, substitute, swap two neighbours) that turn {@code a} into {@code b}: a swap is one typo. */
    static int editDistance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /** Every value, with those of secret-looking keys (password, secret, token) redacted. */
    @Override
    public String toString() {
        Map<String, String> shown = new TreeMap<>();
        values.forEach((k, v) -> shown.put(k, isSecretName(k) ? "******" : v));
        return shown.toString();
    }

    /** Whether a key names a secret (password, secret, token): its value is redacted, and must be a reference. */
    public static boolean isSecretName(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.contains("password") || k.contains("secret") || k.contains("token");
    }
}
