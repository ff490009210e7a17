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
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.feedtrackingjoin.core.RequestState;
import io.nearline.feedtrackingjoin.core.RequestStateCodec;
import io.nearline.feedtrackingjoin.core.TrackingCodec;
import io.nearline.feedtrackingjoin.core.TrackingText;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the join's state costs against the events it holds: bench join's traffic (64 index nodes,
 * fan-outs up to 16) through the engine-less join, its state measured every 100 events. The goal:
 * at most twice the bytes of the held events' own Avro encoding. docs/benchmarks.md quotes the
 * figures this prints.
 */
class JoinStateCostTest {

    private static final long WINDOW = JoinSettings.WINDOW.defaultValue().toMillis();
    private static final long LATENESS =
            JoinSettings.ALLOWED_LATENESS.defaultValue().toMillis();

    @Test
    void theStateCostsAtMostTwiceTheEventsItHolds(@TempDir Path dir) throws Exception {
        new TrackingGenerator(3000, 64, 16, 0.02, 0.02, 0.01, 500, 0.001, 30_000, 1)
                .write(dir.resolve("index"), dir.resolve("broker"));
        List<Events.Fragment> index = new ArrayList<>();
        List<Events.BrokerEvent> broker = new ArrayList<>();
        Files.readAllLines(dir.resolve("index")).forEach(l -> index.add(TrackingText.fragment(l)));
        Files.readAllLines(dir.resolve("broker")).forEach(l -> broker.add(TrackingText.broker(l)));

        LocalJoin join = new LocalJoin(WINDOW, LATENESS);
        List<LocalJoin.StateSize> samples = new ArrayList<>();
        int[] offered = {0};
        CoreJoinReplay.run(index, broker, 4, join, new Random(1), () -> {
            if (++offered[0] % 100 == 0) {
                samples.add(join.stateSize());
            }
        });
        LocalJoin.StateSize peak = samples.stream()
                .max((a, b) -> Long.compare(a.storedBytes(), b.storedBytes()))
                .orElseThrow();
        double worst = samples.stream()
                .filter(s -> s.eventBytes() > 0)
                .mapToDouble(s -> (double) s.storedBytes() / s.eventBytes())
                .max()
                .orElseThrow();
        System.out.printf(
                "join state at its peak: %,d open requests and %,d markers in %,d bytes (%.0f a request), "
                        + "%,d waiting events in %,d bytes (%.0f an event); %,d bytes in all for %,d bytes of the "
                        + "held events' own Avro encoding (%.2fx); the worst of %d samples %.2fx%n",
                peak.openRequests(),
                peak.markers(),
                peak.requestBytes(),
                (double) peak.requestBytes() / Math.max(1, peak.openRequests() + peak.markers()),
                peak.waitingEvents(),
                peak.waitingBytes(),
                (double) peak.waitingBytes() / Math.max(1, peak.waitingEvents()),
                peak.storedBytes(),
                peak.eventBytes(),
                (double) peak.storedBytes() / peak.eventBytes(),
                samples.size(),
                worst);
        assertTrue(peak.openRequests() > 100, "the join held requests open: " + peak);
        assertTrue(worst <= 2.0, "state bytes over twice the events' own: " + worst);
    }

    /** Control of the measure itself: one waiting fragment costs its key and its stored form, and is its Avro bytes. */
    @Test
    void oneWaitingFragmentIsMeasuredAsStored() {
        LocalJoin join = new LocalJoin(WINDOW, LATENESS, () -> 5);
        join.expect("index-0");
        join.expect("broker-0");
        Events.Fragment f = new Events.Fragment("r-1", "node-1", 1_000, List.of(new Events.ScoredDoc("d", 0.5)));
        join.offer("index-0", f);
        LocalJoin.StateSize size = join.stateSize();
        assertEquals(1, size.waitingEvents());
        assertEquals(
                "r-1".getBytes(StandardCharsets.UTF_8).length
                        + RequestStateCodec.encode(new RequestState.Pending(f, 5)).length,
                size.storedBytes());
        assertEquals(TrackingCodec.encode(f).length, size.eventBytes());
        assertEquals(Set.of(), Set.copyOf(join.joined));
    }
}
