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
package io.nearline.localcluster.cdcreference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The conformance scenarios of the cache updater ({@code scenarios/cdc/*.jsonl} in this test-jar)
 * and an oracle for them, computed straight from the JSON without any Nearline code: per key, the
 * valid event with the highest (scn, schemaVersion) wins.
 */
public final class Scenarios {

    public static final List<String> CDC = List.of("scrambled.jsonl", "edge-cases.jsonl");

    private static final ObjectMapper JSON = new ObjectMapper();

    private Scenarios() {}

    /** Copies a scenario out of the classpath into {@code dir} (engines read files). */
    public static Path copy(String name, Path dir) {
        return copy("cdc", name, dir);
    }

    /** Copies {@code scenarios/FOLDER/NAME} out of the classpath into {@code dir}. */
    public static Path copy(String folder, String name, Path dir) {
        try (InputStream in = Scenarios.class.getResourceAsStream("/scenarios/" + folder + "/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no scenario " + name);
            }
            Path out = dir.resolve(name);
            Files.copy(in, out);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The lines of {@code scenarios/FOLDER/NAME}, sorted (an expected output listed in the scenarios). */
    public static List<String> lines(String folder, String name) {
        try (InputStream in = Scenarios.class.getResourceAsStream("/scenarios/" + folder + "/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no scenario " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .filter(l -> !l.isBlank())
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The final state the scenario must produce, as state-dump lines sorted by key: the highest version
     * of each key over all the files (a live stream and a snapshot, say).
     */
    public static List<String> expectedState(Path... scenario) {
        Map<String, JsonNode> winners = new TreeMap<>();
        Comparator<JsonNode> byVersion = Comparator.<JsonNode>comparingLong(
                        n -> n.get("scn").asLong())
                .thenComparingInt(n -> n.get("schemaVersion").asInt());
        for (Path file : scenario) {
            for (JsonNode n : valid(file)) {
                winners.merge(n.get("key").asText(), n, (a, b) -> byVersion.compare(b, a) > 0 ? b : a);
            }
        }
        List<String> out = new ArrayList<>();
        winners.forEach((key, n) -> {
            ObjectNode line = JSON.createObjectNode();
            boolean delete = n.get("op").asText().equals("DELETE");
            line.put("key", key);
            line.put("scn", n.get("scn").asLong());
            line.put("schemaVersion", n.get("schemaVersion").asInt());
            line.put("tombstone", delete);
            if (!delete) {
                line.put("payload", n.get("payload").asText());
            }
            out.add(line.toString());
        });
        return out;
    }

    /** How many lines of the scenario must be dead-lettered. */
    public static int expectedDeadLetters(Path scenario) {
        return lines(scenario).size() - valid(scenario).size();
    }

    private static List<JsonNode> valid(Path scenario) {
        List<JsonNode> out = new ArrayList<>();
        for (String line : lines(scenario)) {
            JsonNode n;
            try {
                n = JSON.readTree(line);
            } catch (IOException e) {
                continue;
            }
            boolean ok = n.isObject()
                    && n.hasNonNull("key")
                    && !n.get("key").asText().isEmpty()
                    && n.path("scn").isIntegralNumber()
                    && n.get("scn").asLong() >= 0
                    && (n.path("op").asText().equals("DELETE")
                            || (n.path("op").asText().equals("UPSERT") && n.hasNonNull("payload")));
            if (ok) {
                out.add(n);
            }
        }
        return out;
    }

    private static List<String> lines(Path scenario) {
        try {
            return Files.readAllLines(scenario).stream()
                    .filter(l -> !l.isBlank())
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
