package io.nearline.tracking.join;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertTrue(joined.contains("\"complete\":true") && joined.contains("\"nodes\":[\"index-3\"]")
                && joined.contains("\"missing\":[]"), joined);
    }

    @Test
    void badLinesSayWhatIsWrong() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrackingText.fragment("nope")).getMessage().startsWith("not JSON"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrackingText.fragment("{\"node\":\"a\",\"ts\":1}"))
                .getMessage().contains("requestId"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrackingText.broker("{\"requestId\":\"r\",\"ts\":1,\"fanout\":[]}"))
                .getMessage().contains("fanout"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrackingText.fragment("{\"requestId\":\"r\",\"node\":\"a\",\"ts\":\"x\"}"))
                .getMessage().contains("ts"));
    }

    /** Generated traffic through the join: one joined event per request whose broker event was sent. */
    @Test
    void generatedTrafficJoinsToOneEventPerRequest() throws Exception {
        Path index = dir.resolve("index.jsonl");
        Path broker = dir.resolve("broker.jsonl");
        TrackingGenerator.Written w = new TrackingGenerator(500, 32, 16, 0.05, 0.05, 0.05, 200, 7).write(index, broker);
        assertEquals(w.fragments(), Files.readAllLines(index).size());

        // merge both streams in timestamp order, as arrival order, with some disorder
        List<Object> events = new ArrayList<>();
        Files.readAllLines(index).forEach(l -> events.add(TrackingText.fragment(l)));
        Files.readAllLines(broker).forEach(l -> events.add(TrackingText.broker(l)));
        events.sort(Comparator.comparingLong(e -> e instanceof Events.Fragment f ? f.ts() : ((Events.BrokerEvent) e).ts()));
        JoinHarness h = new JoinHarness(10_000, 500);
        for (Object e : events) {
            if (e instanceof Events.Fragment f) {
                h.fragment(f);
            } else {
                h.broker((Events.BrokerEvent) e);
            }
        }
        h.endOfInput();
        assertEquals(w.brokerEvents(), h.joined.size());
        assertEquals(h.joined.size(), h.joined.stream().map(Events.Joined::requestId).distinct().count());
        assertTrue(h.joined.stream().anyMatch(j -> !j.complete()), "no partial join: drops not exercised");
        assertTrue(h.joined.stream().anyMatch(j -> j.duplicatesDropped() > 0), "no duplicates exercised");
        assertTrue(h.orphans.size() > 0, "no lost broker events exercised");
        assertEquals(0, h.liveStates());
    }
}
