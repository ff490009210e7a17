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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.feedtrackingjoin.core.TrackingCodec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The oracle compares whole records: an engine's bytes read with Avro's generic reader equal the
 * oracle's record written field by field, and a changed score, a document swapped between two
 * requests or a reordered ranking is a difference.
 */
class FullRecordsTest {

    private static Events.Fragment fragment(String request, String node, long ts, Events.ScoredDoc... docs) {
        return new Events.Fragment(request, node, ts, List.of(docs));
    }

    private static Events.Joined joined(String request, Events.ScoredDoc a, Events.ScoredDoc b, List<String> ranking) {
        Set<String> fanout = new LinkedHashSet<>(List.of("n2", "n1", "n3"));
        Events.BrokerEvent broker = new Events.BrokerEvent(request, 1_000, fanout, "viewer-7", ranking, "m-42");
        return new Events.Joined(
                request,
                broker,
                List.of(fragment(request, "n1", 990, a), fragment(request, "n2", 995, b)),
                false,
                Set.of("n3"),
                10_000,
                1);
    }

    private static final Events.ScoredDoc D1 = new Events.ScoredDoc("d1", 0.75, Map.of("ctr", 0.1, "age", 3.0));
    private static final Events.ScoredDoc D2 = new Events.ScoredDoc("d2", 0.5);
    private static final Events.ScoredDoc D9 = new Events.ScoredDoc("d9", 0.25);

    /** What the engine wrote (the job's codec), read back apart from it. */
    private static String written(Events.Joined j) {
        return FullRecords.joined(TrackingCodec.encode(j));
    }

    @Test
    void anEnginesRecordReadWithTheGenericReaderIsTheOraclesRecordWhole() {
        Events.Joined j = joined("r1", D1, D2, List.of("d2", "d1"));
        assertEquals(FullRecords.of(j), written(j));
        for (String field : List.of(
                "\"score\":0.75",
                "\"ctr\":0.1",
                "\"ranking\":[\"d2\",\"d1\"]",
                "\"fanout\":[\"n2\",\"n1\",\"n3\"]",
                "\"eventTimeMillis\":995",
                "\"modelVersion\":\"m-42\"",
                "\"missingNodes\":[\"n3\"]")) {
            assertTrue(written(j).contains(field), field + " in " + written(j));
        }
        Events.Orphan o = new Events.Orphan("r2", List.of(fragment("r2", "n1", 5, D9)));
        assertEquals(FullRecords.of(o), FullRecords.orphan(TrackingCodec.encode(o)));
        Events.Late late = new Events.Late("r3", "fragment", "n2", 7, Events.LateReason.AFTER_EMISSION);
        assertEquals(FullRecords.of(late), FullRecords.late(TrackingCodec.encode(late)));
        Events.Late brokerLate = new Events.Late("r3", "broker", null, 7, Events.LateReason.BEHIND_PARTITION);
        assertEquals(FullRecords.of(brokerLate), FullRecords.late(TrackingCodec.encode(brokerLate)));
    }

    @Test
    void aChangedScoreIsADifference() {
        Events.Joined expected = joined("r1", D1, D2, List.of("d2", "d1"));
        Events.Joined got = joined("r1", new Events.ScoredDoc("d1", 0.7500001, D1.features()), D2, List.of("d2", "d1"));
        assertNotEquals(FullRecords.of(expected), written(got));
    }

    @Test
    void aDocumentSwappedBetweenTwoRequestsIsADifference() {
        JoinOutputs expected = JoinOutputs.of(
                List.of(joined("r1", D1, D2, List.of("d1")), joined("r2", D9, D2, List.of("d9"))),
                List.of(),
                List.of());
        List<byte[]> swapped = new ArrayList<>();
        swapped.add(TrackingCodec.encode(joined("r1", D9, D2, List.of("d1"))));
        swapped.add(TrackingCodec.encode(joined("r2", D1, D2, List.of("d9"))));
        JoinOutputs got = JoinOutputs.ofAvro(swapped, List.of(), List.of());
        assertNotEquals(expected.joined(), got.joined());
        // control: the same two as the engine wrote them
        List<byte[]> same = List.of(
                TrackingCodec.encode(joined("r2", D9, D2, List.of("d9"))),
                TrackingCodec.encode(joined("r1", D1, D2, List.of("d1"))));
        assertEquals(expected, JoinOutputs.ofAvro(same, List.of(), List.of()));
    }

    @Test
    void aReorderedRankingIsADifference() {
        assertNotEquals(
                FullRecords.of(joined("r1", D1, D2, List.of("d1", "d2"))),
                written(joined("r1", D1, D2, List.of("d2", "d1"))));
    }
}
