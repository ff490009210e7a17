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
package io.nearline.feedtrackingjoin.core.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.avro.DeadLetter;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.feedtrackingjoin.core.TrackingCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A few requests written out by hand, each showing one thing the join must do, one partition of the
 * index topic and one of the broker topic, and what each must end as, also written out by hand: the
 * engine modules' own tests of the join's wiring (the conformance suites in local-cluster hold the
 * jobs to the reference run on generated traffic).
 *
 * <ul>
 *   <li>r1: the broker and both fragments it fanned out to: joined complete.
 *   <li>r2: node c never reports: joined partial, c missing, when the window closes.
 *   <li>r3: a fragment whose broker event never comes: orphaned.
 *   <li>r4: a fragment repeated before the request is complete: joined complete, one duplicate dropped.
 *   <li>r5: complete, 20 s of event time later.
 *   <li>r6: a fragment 19 s behind its partition's newest event: late ({@code BEHIND_PARTITION}).
 *   <li>a record that is not an index fragment (offset {@value #BAD_OFFSET}): a dead letter.
 * </ul>
 */
public final class HandWrittenRequests {

    /** The offset of the record that is not a fragment, on partition 0 of the index topic. */
    public static final int BAD_OFFSET = 8;

    private HandWrittenRequests() {}

    private static byte[] fragment(String request, String node, long ts) {
        return TrackingCodec.encode(
                new Events.Fragment(request, node, ts, List.of(new Events.ScoredDoc("doc-" + node, 0.5))));
    }

    private static byte[] broker(String request, long ts, String... fanout) {
        return TrackingCodec.encode(
                new Events.BrokerEvent(request, ts, Set.of(fanout), "viewer-1", List.of("doc-a"), "m1"));
    }

    /** The index topic's partition 0, in offset order. */
    public static List<byte[]> index() {
        return List.of(
                fragment("r1", "a", 1_100),
                fragment("r1", "b", 1_200),
                fragment("r2", "a", 2_100),
                fragment("r2", "b", 2_200),
                fragment("r3", "a", 3_000),
                fragment("r4", "a", 4_100),
                fragment("r4", "a", 4_100),
                fragment("r4", "b", 4_200),
                "not an index fragment".getBytes(StandardCharsets.UTF_8),
                fragment("r5", "a", 20_000),
                fragment("r6", "a", 1_000));
    }

    /** The broker topic's partition 0, in offset order. */
    public static List<byte[]> brokers() {
        return List.of(
                broker("r1", 1_000, "a", "b"),
                broker("r2", 2_000, "a", "b", "c"),
                broker("r4", 4_000, "a", "b"),
                broker("r5", 20_000, "a"));
    }

    /**
     * Asserts what the outputs hold (their Avro values, keyed by request where they have a key):
     * exactly what the requests above must end as, and nothing else.
     */
    public static void assertOutputs(
            Map<String, List<byte[]>> joinedByKey,
            List<byte[]> orphans,
            List<byte[]> late,
            List<byte[]> deadLetters,
            String indexTopic)
            throws IOException {
        Map<String, Events.Joined> joined = new TreeMap<>();
        for (Map.Entry<String, List<byte[]>> e : joinedByKey.entrySet()) {
            for (byte[] value : e.getValue()) {
                Events.Joined j = TrackingCodec.decodeJoined(value);
                assertEquals(j.requestId(), e.getKey(), "keyed by request");
                assertFalse(joined.containsKey(j.requestId()), "one joined event per request: " + j.requestId());
                joined.put(j.requestId(), j);
            }
        }
        assertEquals(Set.of("r1", "r2", "r4", "r5"), joined.keySet());
        assertTrue(joined.get("r1").complete());
        assertEquals(List.of("a", "b"), nodes(joined.get("r1")));
        assertEquals(Set.of("a", "b"), joined.get("r1").broker().fanout());
        assertFalse(joined.get("r2").complete(), "the window closed before c reported");
        assertEquals(Set.of("c"), joined.get("r2").missing());
        assertEquals(List.of("a", "b"), nodes(joined.get("r2")));
        assertTrue(joined.get("r4").complete());
        assertEquals(1, joined.get("r4").duplicatesDropped());
        assertEquals(List.of("a", "b"), nodes(joined.get("r4")));
        assertTrue(joined.get("r5").complete());

        assertEquals(1, orphans.size());
        Events.Orphan orphan = TrackingCodec.decodeOrphan(orphans.get(0));
        assertEquals("r3", orphan.requestId());
        assertEquals(Set.of("a"), orphan.nodes());

        assertEquals(1, late.size());
        Events.Late r6 = TrackingCodec.decodeLate(late.get(0));
        assertEquals("r6", r6.requestId());
        assertEquals(Events.LateReason.BEHIND_PARTITION, r6.reason());

        assertEquals(1, deadLetters.size());
        DeadLetter letter = DeadLetters.decode(deadLetters.get(0));
        assertEquals("UNDECODABLE", letter.getReason().toString());
        assertEquals(indexTopic, letter.getSourceTopic().toString());
        assertEquals(BAD_OFFSET, letter.getSourceOffset(), "the record's own offset");
    }

    private static List<String> nodes(Events.Joined j) {
        return j.fragments().stream().map(Events.Fragment::node).toList();
    }
}
