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
package io.nearline.localcluster.joinreference;

import static io.nearline.localcluster.joinreference.TrackingJoinTest.assertSameLines;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.feedtrackingjoin.core.TrackingText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The oracle, written from the README's rules apart from the join core, against the core run without
 * an engine: the same outputs, line for line, for generated traffic with drops, repeats, lost broker
 * events and late resends, at windows from far wider to narrower than a request's spread. And the
 * oracle is not blind: an example worked out by hand from the rules, and a core run with another
 * window, each tell it apart.
 */
class JoinOracleTest {

    @Property(tries = 60)
    void theCoreWithoutAnEngineGivesWhatTheOracleSays(
            @ForAll long seed,
            @ForAll @IntRange(min = 1, max = 4) int partitions,
            @ForAll @IntRange(min = 0, max = 3) int setting)
            throws Exception {
        long[][] windowAndLateness = {{10_000, 1000}, {500, 200}, {60, 30}, {25, 5}};
        long window = windowAndLateness[setting][0];
        long lateness = windowAndLateness[setting][1];
        Traffic t = Traffic.generate(seed, 300);
        JoinOutputs core = CoreJoinReplay.run(t.index, t.brokers, partitions, window, lateness, new Random(seed));
        JoinOutputs oracle = JoinOracle.expected(t.index, t.brokers, partitions, window, lateness);
        String what = "seed " + seed + ", " + partitions + " partitions, window " + window + " ms, lateness " + lateness
                + " ms";
        assertSameLines(oracle.joined(), core.joined(), what + ": joined");
        assertSameLines(oracle.orphans(), core.orphans(), what + ": orphans");
        assertSameLines(oracle.late(), core.late(), what + ": late");
    }

    @Test
    void anExampleWorkedOutByHandFromTheRules() {
        // request a: fan-out {n1, n2}; n1 twice, n2, the broker: complete at the broker, one repeat counted;
        // then n1 again 5 s later in event time (within a 10 s window plus one): late after emission.
        // request b: fan-out {n1, n2}, only n1 comes: partial at the window's end (1,100 + 10,000), missing n2,
        // 9,980 ms after its last needed event (the broker's, at 1,120).
        // request c: a fragment and no broker event: an orphan.
        // request d: a fragment 3 s older than the newest event before it in its partition: late.
        List<Events.Fragment> index = List.of(
                fragment("a", "n1", 1_000),
                fragment("a", "n1", 1_000),
                fragment("b", "n1", 1_100),
                fragment("a", "n2", 1_010),
                fragment("c", "n3", 1_200),
                fragment("d", "n1", 5_000),
                fragment("d", "n2", 2_000),
                fragment("a", "n1", 6_000));
        List<Events.BrokerEvent> brokers = List.of(broker("a", 1_020, "n1", "n2"), broker("b", 1_120, "n1", "n2"));
        JoinOutputs expected = JoinOracle.expected(index, brokers, 1, 10_000, 1_000);
        assertEquals(
                List.of(
                        "a complete nodes [n1, n2] missing [] duplicatesDropped 1 joinLatencyMillis 0",
                        "b partial nodes [n1] missing [n2] duplicatesDropped 0 joinLatencyMillis 9980"),
                expected.joined().stream().map(JoinOracleTest::summary).toList());
        assertEquals(
                List.of("c nodes [n3]", "d nodes [n1]"),
                expected.orphans().stream()
                        .map(line -> read(line).path("requestId").asText() + " nodes "
                                + texts(read(line).path("nodes")))
                        .toList());
        assertEquals(
                List.of(
                        "{\"requestId\":\"a\",\"kind\":\"fragment\",\"node\":\"n1\",\"eventTimeMillis\":6000,"
                                + "\"reason\":\"AFTER_EMISSION\"}",
                        "{\"requestId\":\"d\",\"kind\":\"fragment\",\"node\":\"n2\",\"eventTimeMillis\":2000,"
                                + "\"reason\":\"BEHIND_PARTITION\"}"),
                expected.late());
        JoinOutputs core = CoreJoinReplay.run(index, brokers, 1, 10_000, 1_000, new Random(0));
        assertEquals(expected, core);
    }

    @Test
    void aCoreWithAnotherWindowIsToldApart() throws Exception {
        Traffic t = Traffic.generate(7, 300);
        JoinOutputs oracle = JoinOracle.expected(t.index, t.brokers, 2, 60, 30);
        assertNotEquals(oracle, CoreJoinReplay.run(t.index, t.brokers, 2, 50, 30, new Random(7)));
        assertNotEquals(oracle, CoreJoinReplay.run(t.index, t.brokers, 2, 60, 20, new Random(7)));
    }

    private static Events.Fragment fragment(String request, String node, long ts) {
        return new Events.Fragment(request, node, ts, List.of(new Events.ScoredDoc(node + "/doc", 0.5)));
    }

    private static Events.BrokerEvent broker(String request, long ts, String... fanout) {
        return new Events.BrokerEvent(request, ts, Set.of(fanout), "v", List.of(fanout), "m");
    }

    /** Generated traffic read back in arrival order: 12 nodes, drops, repeats, lost broker events, late resends. */
    private record Traffic(List<Events.Fragment> index, List<Events.BrokerEvent> brokers) {
        static Traffic generate(long seed, int requests) throws Exception {
            Path dir = Files.createTempDirectory("join-oracle");
            try {
                new TrackingGenerator(requests, 12, 8, 0.1, 0.1, 0.1, 80, 0.05, 3000, seed)
                        .write(dir.resolve("i"), dir.resolve("b"), 20_000);
                List<Events.Fragment> index = new ArrayList<>();
                List<Events.BrokerEvent> brokers = new ArrayList<>();
                Files.readAllLines(dir.resolve("i")).forEach(l -> index.add(TrackingText.fragment(l)));
                Files.readAllLines(dir.resolve("b")).forEach(l -> brokers.add(TrackingText.broker(l)));
                return new Traffic(index, brokers);
            } finally {
                try (var files = Files.list(dir)) {
                    for (Path f : files.toList()) {
                        Files.delete(f);
                    }
                }
                Files.delete(dir);
            }
        }
    }

    /** A joined line's rule-relevant fields, as the example above was worked out. */
    private static String summary(String line) {
        JsonNode n = read(line);
        List<String> nodes = new ArrayList<>();
        n.path("fragments").forEach(f -> nodes.add(f.path("node").asText()));
        return n.path("requestId").asText() + (n.path("complete").asBoolean() ? " complete" : " partial") + " nodes "
                + nodes + " missing " + texts(n.path("missingNodes")) + " duplicatesDropped "
                + n.path("duplicatesDropped").asInt() + " joinLatencyMillis "
                + n.path("joinLatencyMillis").asLong();
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(t -> out.add(t.asText()));
        return out;
    }

    private static JsonNode read(String line) {
        try {
            return new ObjectMapper().readTree(line);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(line, e);
        }
    }
}
