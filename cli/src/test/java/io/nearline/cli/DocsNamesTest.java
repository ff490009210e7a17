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
            "NoSuchMethodError");

    /** A code span that names a class (two humps or more), maybe a member: `Class`, `Class.member`, `Class#member()`. */
    private static final Pattern NAMED =
            Pattern.compile("`([A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+)(?:[.#]([a-z]\\w*))?(?:\\(\\))?`");

    private static final Set<String> FILE_ENDINGS = Set.of("avsc", "java", "jar", "md", "yaml", "json", "properties");

    private static final Pattern DECLARED = Pattern.compile("\\b(?:class|record|enum|interface)\\s+([A-Z]\\w*)");
    private static final Pattern AVRO_RECORD = Pattern.compile("\"name\"\\s*:\\s*\"([A-Z]\\w*)\"");
    /** The shipped Prometheus alerts are ours too (jobs/monitoring). */
    private static final Pattern ALERT = Pattern.compile("alert: ([A-Z]\\w*)");

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
