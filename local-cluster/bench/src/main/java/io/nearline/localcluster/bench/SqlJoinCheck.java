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
package io.nearline.localcluster.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.nearline.localcluster.joinreference.JoinOutputs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The check of {@code bench join --against flink-sql}: the SQL job's rows against the join oracle, per
 * request, on what both produce: whether the request joined its broker event or was orphaned, and which
 * index nodes' fragments it holds. The SQL job drops what is behind its watermark, which trails the
 * slowest input by the allowed lateness, where the oracle calls an event late against its own partition
 * and after a request's emission; so a request may hold, beyond the oracle's nodes, nodes the oracle
 * called late, and a request whose broker event the oracle called late may be joined. Everything else
 * must agree. A request the oracle joined with no fragment at all is left out (a join driven by the
 * fragments cannot produce it) and counted.
 */
final class SqlJoinCheck {

    /** What the check found: the mismatched requests (a few named), and the requests left out. */
    record Result(int requests, List<String> mismatches, int withoutFragments) {
        boolean matches() {
            return mismatches.isEmpty();
        }
    }

    /** One request as either side has it: joined (true) or orphaned, and its nodes. */
    private record Request(boolean joined, Set<String> nodes) {}

    private SqlJoinCheck() {}

    static Result check(JoinOutputs oracle, List<String> sqlRows) {
        Map<String, Set<String>> lateNodes = new HashMap<>();
        Set<String> lateBroker = new HashSet<>();
        for (String line : oracle.late()) {
            JsonNode n = json(line);
            String id = n.path("requestId").asText();
            if (n.hasNonNull("node")) {
                lateNodes
                        .computeIfAbsent(id, k -> new HashSet<>())
                        .add(n.path("node").asText());
            } else {
                lateBroker.add(id);
            }
        }
        Map<String, Request> expected = new HashMap<>();
        int withoutFragments = 0;
        for (String line : oracle.joined()) {
            JsonNode n = json(line);
            Set<String> nodes = new HashSet<>();
            n.path("fragments").forEach(f -> nodes.add(f.path("node").asText()));
            if (nodes.isEmpty()) {
                withoutFragments++;
            } else {
                merge(expected, n.path("requestId").asText(), true, nodes);
            }
        }
        for (String line : oracle.orphans()) {
            JsonNode n = json(line);
            merge(expected, n.path("requestId").asText(), false, texts(n.path("nodes")));
        }
        Map<String, Request> actual = new HashMap<>();
        for (String row : sqlRows) {
            JsonNode n = json(row);
            String nodes = n.path("nodes").asText("");
            merge(
                    actual,
                    n.path("requestId").asText(),
                    n.path("joined").asBoolean(),
                    nodes.isEmpty() ? Set.of() : new HashSet<>(Arrays.asList(nodes.split(","))));
        }
        List<String> mismatches = new ArrayList<>();
        Set<String> ids = new TreeSet<>(expected.keySet());
        ids.addAll(actual.keySet());
        for (String id : ids) {
            String problem = problem(
                    expected.get(id), actual.get(id), lateNodes.getOrDefault(id, Set.of()), lateBroker.contains(id));
            if (problem != null) {
                mismatches.add(id + ": " + problem);
            }
        }
        return new Result(ids.size(), mismatches, withoutFragments);
    }

    /** Why the SQL job's request differs from the oracle's beyond what lateness explains, or null. */
    private static String problem(Request want, Request got, Set<String> late, boolean brokerLate) {
        if (got == null) {
            return "not in the SQL job's rows (the oracle: " + want + ")";
        }
        if (want == null) {
            return late.containsAll(got.nodes()) ? null : "only in the SQL job's rows: " + got;
        }
        if (want.joined() != got.joined() && !brokerLate) {
            return (want.joined() ? "joined" : "orphaned") + " by the oracle, " + (got.joined() ? "joined" : "orphaned")
                    + " by the SQL job";
        }
        Set<String> allowed = new HashSet<>(want.nodes());
        allowed.addAll(late);
        if (!got.nodes().containsAll(want.nodes()) || !allowed.containsAll(got.nodes())) {
            return "nodes " + new TreeSet<>(got.nodes()) + ", the oracle's " + new TreeSet<>(want.nodes())
                    + (late.isEmpty() ? "" : " (late: " + new TreeSet<>(late) + ")");
        }
        return null;
    }

    private static void merge(Map<String, Request> requests, String id, boolean joined, Set<String> nodes) {
        requests.merge(id, new Request(joined, nodes), (a, b) -> {
            Set<String> all = new HashSet<>(a.nodes());
            all.addAll(b.nodes());
            return new Request(a.joined() || b.joined(), all);
        });
    }

    /** Each row's latency: its emission less the arrival of the newest event it holds, in milliseconds. */
    static long[] latenciesMillis(List<String> sqlRows) {
        return sqlRows.stream()
                .map(SqlJoinCheck::json)
                .mapToLong(n -> Duration.between(
                                Instant.parse(n.path("lastArrived").asText()),
                                Instant.parse(n.path("emitted").asText()))
                        .toMillis())
                .sorted()
                .toArray();
    }

    private static Set<String> texts(JsonNode array) {
        Set<String> out = new HashSet<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static JsonNode json(String line) {
        try {
            return Benches.JSON.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException("not a JSON line: " + line, e);
        }
    }
}
