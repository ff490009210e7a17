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
package io.nearline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every class the docs name in code spans ({@code `ScnOrderedWriter`}, {@code `UpdateBatch.flush`})
 * exists, and so does the member: a class renamed or removed shows here, not in a reader's search.
 * A package named ({@code `io.nearline.cli.endtoend`}, {@code `io.nearline.cacheupdater.flink.BootstrapJob`})
 * exists and holds the class named in it; a call written with its arguments
 * ({@code `CacheUpdaterJob.define(env, io, config)`}, {@code `Workload(keys, commits, ...)`}) has a
 * declaration taking that many.
 * A name that is not ours must be on {@link #ELSEWHERE}, the classes of the projects Nearline runs on
 * that the docs name. The journal (docs/journal) is left out: its entries are dated, and name what
 * existed that day.
 */
class DocsNamesTest {

    private static final Path CHECKOUT = Path.of("..").toAbsolutePath().normalize();

    /** Classes of other projects the docs name, by project. */
    private static final Set<String> ELSEWHERE = Set.of(
            // Flink
            "BashJavaUtils",
            "CliFrontend",
            "KeyedProcessFunction",
            "ListState",
            "MiniCluster",
            "StandaloneSessionClusterEntrypoint",
            "TaskManagerRunner",
            "ValueState",
            // Samza
            "AsyncStreamTask",
            "LocalApplicationRunner",
            "MetricsSnapshotReporterFactory",
            "YarnJobFactory",
            // Kafka and Kafka Connect
            "ByteArrayConverter",
            "ConnectDistributed",
            "FileConfigProvider",
            "JsonConverter",
            "MockProducer",
            "PluginMetrics",
            "RegexRouter",
            "StringConverter",
            // Debezium
            "ExtractNewRecordState",
            "OracleSourceInfoStructMaker",
            "PostgresOffsetContext",
            "PostgresStreamingChangeEventSource",
            "SourceInfo",
            // the Couchbase SDK
            "CasMismatchException",
            "DocumentExistsException",
            "DocumentNotFoundException",
            // Kubernetes, the Flink Kubernetes Operator, Strimzi
            "ConfigMap",
            "FlinkDeployment",
            "FlinkSessionJob",
            "KafkaConnect",
            "KafkaConnector",
            "KubernetesSecretConfigProvider",
            "RoleBinding",
            // Hadoop, the JDK
            "FsShell",
            "NoSuchMethodError",
            "TimeoutException");

    /** A code span that names a class (two humps or more), maybe a member: `Class`, `Class.member`, `Class#member()`. */
    private static final Pattern NAMED =
            Pattern.compile("`([A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+)(?:[.#]([a-z]\\w*))?(?:\\(\\))?`");

    private static final Set<String> FILE_ENDINGS = Set.of("avsc", "java", "jar", "md", "yaml", "json", "properties");

    private static final Pattern DECLARED = Pattern.compile("\\b(?:class|record|enum|interface)\\s+([A-Z]\\w*)");
    private static final Pattern AVRO_RECORD = Pattern.compile("\"name\"\\s*:\\s*\"([A-Z]\\w*)\"");
    /** The shipped Prometheus alerts are ours too (jobs/monitoring). */
    private static final Pattern ALERT = Pattern.compile("alert: ([A-Z]\\w*)");

    /** A code span naming one of our packages, maybe a class in it: `io.nearline.x.y`, `io.nearline.x.Y`, `io.nearline.x..`. */
    private static final Pattern PACKAGE_NAMED =
            Pattern.compile("`(io\\.nearline(?:\\.[a-z][a-z0-9]*)*)(?:\\.([A-Z]\\w*)|\\.\\.|\\.)?`");

    /** A code span calling a class's member, or its constructor, with arguments: `Class.member(a, b)`, `Class(a, b)`. */
    private static final Pattern CALLED =
            Pattern.compile("`([A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)*)(?:[.#]([a-z]\\w*))?\\(([^)`]+)\\)`");

    private static final Pattern PACKAGE_LINE = Pattern.compile("(?m)^package ([\\w.]+);");
    private static final Pattern AVRO_NAMESPACE = Pattern.compile("\"namespace\"\\s*:\\s*\"([\\w.]+)\"");
    /** Where a shaded jar relocates what it carries (store-redis's Lettuce and Netty). */
    private static final Pattern RELOCATED = Pattern.compile("<shadedPattern>([\\w.]+)</shadedPattern>");

    @Test
    void everyPackageAndCallTheDocsNameExists() throws IOException {
        Map<String, Set<String>> packages = ourPackages();
        Map<String, List<String>> ours = ourClasses();
        List<String> unknown = new ArrayList<>();
        for (Path doc : docs()) {
            String text = Files.readString(doc);
            String name = CHECKOUT.relativize(doc) + "";
            unknown.addAll(unknownPackages(name, text, packages));
            unknown.addAll(wrongArities(name, text, ours));
        }
        assertEquals(List.of(), unknown, "the docs name a package, or a call's arguments, that is not there");
    }

    @Test
    void aStalePackageAndAWrongArityAreCaught() {
        Map<String, Set<String>> packages = Map.of(
                "io.nearline.cli.endtoend",
                Set.of("FlinkSessionDeployIT"),
                "io.nearline.cacheupdater.flink",
                Set.of("CacheUpdaterJob"));
        String doc = "Tests in `io.nearline.cli.endtoend`, not `io.nearline.cli.cluster`; the main class "
                + "`io.nearline.cacheupdater.flink.CacheUpdaterJob`, not `io.nearline.cacheupdater.flink.BootstrapJob`; "
                + "the floors `io.nearline.cli..` and `io.nearline.`.";
        assertEquals(
                List.of("d.md: io.nearline.cacheupdater.flink.BootstrapJob", "d.md: io.nearline.cli.cluster"),
                unknownPackages("d.md", doc, packages));
        Map<String, List<String>> ours = Map.of(
                "CacheUpdaterJob",
                List.of(
                        "public static void define(StreamExecutionEnvironment env, CacheUpdaterIo io, Config config) {"),
                "Workload",
                List.of("public record Workload(int keys, Map<String, Integer> skew) {"));
        String calls =
                "`CacheUpdaterJob.define(env, io, config)` is right, `CacheUpdaterJob.define(env, config, source, "
                        + "deadLetterSink)` is stale; `Workload(keys, skew)` is right, `Workload(keys)` is not; `Other.f(x)` "
                        + "is not ours.";
        assertEquals(
                List.of(
                        "d.md: CacheUpdaterJob.define(env, config, source, deadLetterSink) takes 4",
                        "d.md: Workload(keys) takes 1"),
                wrongArities("d.md", calls, ours));
    }

    /** The packages (and classes in them) that {@code text} names but are not ours. */
    static List<String> unknownPackages(String doc, String text, Map<String, Set<String>> packages) {
        Set<String> unknown = new TreeSet<>();
        Matcher m = PACKAGE_NAMED.matcher(text);
        while (m.find()) {
            String pkg = m.group(1);
            boolean exists = packages.keySet().stream().anyMatch(p -> p.equals(pkg) || p.startsWith(pkg + "."));
            if (!exists) {
                unknown.add(doc + ": " + pkg);
            } else if (m.group(2) != null
                    && !packages.getOrDefault(pkg, Set.of()).contains(m.group(2))) {
                unknown.add(doc + ": " + pkg + "." + m.group(2));
            }
        }
        return new ArrayList<>(unknown);
    }

    /** The calls in {@code text} of our classes whose argument count no declaration of that name takes. */
    static List<String> wrongArities(String doc, String text, Map<String, List<String>> ours) {
        Set<String> wrong = new TreeSet<>();
        Matcher m = CALLED.matcher(text);
        while (m.find()) {
            List<String> sources = ours.get(m.group(1));
            if (sources == null) {
                continue;
            }
            String name = m.group(2) == null ? m.group(1) : m.group(2);
            int arguments = count(m.group(3));
            if (m.group(3).contains("...")) {
                continue; // "and the rest": any number
            }
            Pattern declared = Pattern.compile("\\b" + name + "\\s*\\(");
            boolean found = false;
            for (String source : sources) {
                Matcher d = declared.matcher(source);
                while (!found && d.find()) {
                    found = count(parameters(source, d.end())) == arguments;
                }
            }
            if (!found) {
                wrong.add(doc + ": " + m.group(0).replace("`", "") + " takes " + arguments);
            }
        }
        return new ArrayList<>(wrong);
    }

    /** The text between the parenthesis opened just before {@code from} and the one that closes it. */
    private static String parameters(String source, int from) {
        int depth = 1;
        for (int i = from; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return source.substring(from, i);
            }
        }
        return source.substring(from);
    }

    /** How many comma-separated items {@code list} holds, commas inside <>, () and [] not counted. */
    private static int count(String list) {
        if (list.isBlank()) {
            return 0;
        }
        int items = 1;
        int depth = 0;
        for (char c : list.toCharArray()) {
            if (c == '<' || c == '(' || c == '[') {
                depth++;
            } else if (c == '>' || c == ')' || c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                items++;
            }
        }
        return items;
    }

    /** Our packages (the sources', the Avro namespaces, the shaded jars' relocations), each with the classes it holds. */
    private static Map<String, Set<String>> ourPackages() throws IOException {
        Map<String, Set<String>> packages = new HashMap<>();
        for (Path source : files(".java", ".avsc", "pom.xml")) {
            String text = Files.readString(source);
            String file = source.toString();
            Matcher p = (file.endsWith(".java") ? PACKAGE_LINE : file.endsWith(".avsc") ? AVRO_NAMESPACE : RELOCATED)
                    .matcher(text);
            while (p.find()) {
                Set<String> classes = packages.computeIfAbsent(p.group(1), k -> new TreeSet<>());
                if (!file.endsWith("pom.xml")) {
                    Matcher c = (file.endsWith(".avsc") ? AVRO_RECORD : DECLARED).matcher(text);
                    while (c.find()) {
                        classes.add(c.group(1));
                    }
                }
            }
        }
        return packages;
    }

    @Test
    void everyClassAndMemberTheDocsNameExists() throws IOException {
        Map<String, List<String>> ours = ourClasses();
        List<String> unknown = new ArrayList<>();
        for (Path doc : docs()) {
            unknown.addAll(unknownNames(CHECKOUT.relativize(doc) + "", Files.readString(doc), ours));
        }
        assertEquals(List.of(), unknown, "the docs name what is not there (renamed? removed? or add it to ELSEWHERE)");
    }

    @Test
    void aRenamedClassAndAMissingMemberAreCaught() {
        Map<String, List<String>> ours = Map.of("UpdateBatch", List.of("public List<Refused> flush() { }"));
        String doc = "The `UpdateBatch` flushes (`UpdateBatch.flush`); `UpdateBatch.drain` does not exist, "
                + "nor does `UpdateBuffer`; `RegexRouter` is Kafka's; `UPSERT` and `Kafka` are words.";
        assertEquals(List.of("d.md: UpdateBatch.drain", "d.md: UpdateBuffer"), unknownNames("d.md", doc, ours));
    }

    /** The names in {@code text} that are neither ours (with the member, where one is named) nor elsewhere's. */
    static List<String> unknownNames(String doc, String text, Map<String, List<String>> ours) {
        Set<String> unknown = new TreeSet<>();
        Matcher m = NAMED.matcher(text);
        while (m.find()) {
            String name = m.group(1);
            // a file named after a class (BootstrapRecord.avsc) names no member
            String member = m.group(2) == null || FILE_ENDINGS.contains(m.group(2)) ? null : m.group(2);
            List<String> sources = ours.get(name);
            if (sources == null) {
                if (!ELSEWHERE.contains(name)) {
                    unknown.add(doc + ": " + name);
                }
            } else if (member != null
                    && sources.stream().noneMatch(s -> Pattern.compile("\\b" + member + "\\b")
                            .matcher(s)
                            .find())) {
                unknown.add(doc + ": " + name + "." + member);
            }
        }
        return new ArrayList<>(unknown);
    }

    /** Every class, record, enum and interface of ours (nested ones too, and the Avro records), with the sources that declare it. */
    private static Map<String, List<String>> ourClasses() throws IOException {
        Map<String, List<String>> ours = new HashMap<>();
        for (Path source : files(".java", ".avsc", "-rules.yaml")) {
            String text = Files.readString(source);
            String file = source.toString();
            Matcher m =
                    (file.endsWith(".avsc") ? AVRO_RECORD : file.endsWith(".yaml") ? ALERT : DECLARED).matcher(text);
            while (m.find()) {
                ours.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(text);
            }
        }
        return ours;
    }

    private static List<Path> docs() {
        return files(".md").stream()
                .filter(p -> !CHECKOUT.relativize(p).startsWith("docs/journal"))
                .toList();
    }

    private static List<Path> files(String... endings) {
        try (Stream<Path> all = Files.walk(CHECKOUT)) {
            return all.filter(p -> {
                        String rel = CHECKOUT.relativize(p).toString();
                        return Stream.of(endings).anyMatch(rel::endsWith)
                                && !rel.contains("/target/")
                                && !rel.startsWith(".")
                                && !rel.contains("/.");
                    })
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
