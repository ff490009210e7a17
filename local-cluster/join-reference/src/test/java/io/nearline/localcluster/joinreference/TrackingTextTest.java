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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.feedtrackingjoin.core.TrackingText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrackingTextTest {

    @TempDir
    Path dir;

    @Test
    void eventsRoundTripThroughTheTextForm() {
        Events.Fragment f = new Events.Fragment("r1", "index-3", 42, List.of(new Events.ScoredDoc("d1", 0.25)));
        assertEquals(f, TrackingText.fragment(TrackingText.format(f)));
        Events.BrokerEvent b = new Events.BrokerEvent("r1", 50, Set.of("index-3"), "v9", List.of("d1"), "model-3");
        assertEquals(b, TrackingText.broker(TrackingText.format(b)));
        String joined = TrackingText.format(new Events.Joined("r1", b, List.of(f), true, Set.of(), 0, 1));
        assertTrue(
                joined.contains("\"complete\":true")
                        && joined.contains("\"nodes\":[\"index-3\"]")
                        && joined.contains("\"missing\":[]"),
                joined);
    }

    @Test
    void badLinesSayWhatIsWrong() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrackingText.fragment("nope"))
                .getMessage()
                .startsWith("not JSON"));
        assertTrue(
                assertThrows(IllegalArgumentException.class, () -> TrackingText.fragment("{\"node\":\"a\",\"ts\":1}"))
                        .getMessage()
                        .contains("requestId"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> TrackingText.broker("{\"requestId\":\"r\",\"ts\":1,\"fanout\":[]}"))
                .getMessage()
                .contains("fanout"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> TrackingText.fragment("{\"requestId\":\"r\",\"node\":\"a\",\"ts\":\"x\"}"))
                .getMessage()
                .contains("ts"));
    }

    /** Generated traffic through the join: one joined event per request whose broker event was sent. */
    @Test
    void generatedTrafficJoinsToOneEventPerRequest() throws Exception {
        Path index = dir.resolve("index.jsonl");
        Path broker = dir.resolve("broker.jsonl");
        TrackingGenerator.Written w =
                new TrackingGenerator(500, 32, 16, 0.05, 0.05, 0.05, 200, 0.01, 30_000, 7).write(index, broker);
        assertEquals(w.fragments(), Files.readAllLines(index).size());
        List<Events.Fragment> fragments =
                Files.readAllLines(index).stream().map(TrackingText::fragment).toList();
        List<Events.BrokerEvent> brokers =
                Files.readAllLines(broker).stream().map(TrackingText::broker).toList();

        JoinOutputs out = CoreJoinReplay.run(fragments, brokers, 4, 10_000, 500, new Random(1));
        assertEquals(w.brokerEvents(), out.joined().size());
        assertEquals(
                out.joined().size(),
                out.joined().stream().map(l -> l.split(",")[0]).distinct().count());
        assertTrue(out.complete() < out.joined().size(), "no partial join: drops not exercised");
        assertTrue(
                out.joined().stream().anyMatch(l -> !l.contains("\"duplicatesDropped\":0")), "no duplicates exercised");
        assertFalse(out.orphans().isEmpty(), "no lost broker events exercised");
        assertFalse(out.late().isEmpty(), "no late repeats exercised");
        assertTrue(
                out.late().stream().allMatch(l -> l.contains("BEHIND_PARTITION")),
                out.late().toString());
    }

    @Test
    void featuresSurviveTheTextForm() {
        Events.Fragment f = new Events.Fragment(
                "r1",
                "n",
                1,
                List.of(new Events.ScoredDoc("d", 0.5, new TreeMap<>(Map.of("ctr", 0.25, "affinity", 1.0)))));
        assertEquals(f, TrackingText.fragment(TrackingText.format(f)));
    }
}
