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
package io.nearline.feedtrackingjoin.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.avro.DeadLetter;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.metrics.InMemoryMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The output port both engines hand their results to: counted, encoded, held to the size limit. */
class JoinOutputTest {

    private final InMemoryMetrics metrics = new InMemoryMetrics();
    private final List<String> sent = new ArrayList<>();
    private final List<byte[]> deadLetters = new ArrayList<>();

    private final JoinOutput.Sink sink = new JoinOutput.Sink() {
        @Override
        public void send(JoinOutput.Kind kind, String requestId, byte[] value) {
            sent.add(kind + " " + requestId);
        }

        @Override
        public void deadLetter(byte[] deadLetter) {
            deadLetters.add(deadLetter);
        }
    };

    private JoinOutput output(int maxBytes) {
        return new JoinOutput(
                metrics,
                new OutputLimit("join-test", maxBytes),
                new JoinOutput.Topics("joined", "orphans", "late"),
                sink);
    }

    private static Events.Joined joined(String requestId, boolean complete) {
        Events.BrokerEvent broker = new Events.BrokerEvent(requestId, 10, Set.of("a"), "viewer", List.of(), "m1");
        Events.Fragment a = new Events.Fragment(requestId, "a", 11, List.of());
        return new Events.Joined(requestId, broker, List.of(a), complete, Set.of(), 1, 2);
    }

    @Test
    void eachResultGoesToItsTopicAndIsCounted() {
        JoinOutput out = output(1 << 20);
        out.joined(joined("r1", true), System.currentTimeMillis());
        out.joined(joined("r2", false), System.currentTimeMillis());
        out.orphan(new Events.Orphan("r3", List.of(new Events.Fragment("r3", "a", 1, List.of()))));
        out.late(new Events.Late("r1", "fragment", "b", 12, Events.LateReason.AFTER_EMISSION));

        assertEquals(List.of("JOINED r1", "JOINED r2", "ORPHAN r3", "LATE r1"), sent);
        assertEquals(1, metrics.count(JoinMetrics.COMPLETE));
        assertEquals(1, metrics.count(JoinMetrics.PARTIAL));
        assertEquals(1, metrics.count(JoinMetrics.ORPHANS));
        assertEquals(1, metrics.count(JoinMetrics.LATE));
        assertEquals(4, metrics.count(JoinMetrics.DUPLICATES), "two dropped per joined event");
        assertEquals(1, metrics.values(JoinMetrics.LATENCY).length, "latency of complete joins only");
        assertTrue(deadLetters.isEmpty());
    }

    @Test
    void aResultOverTheLimitBecomesADeadLetterNamingItsTopic() {
        output(10).orphan(new Events.Orphan("r9", List.of(new Events.Fragment("r9", "a", 1, List.of()))));

        assertEquals(List.of(), sent);
        assertEquals(1, deadLetters.size());
        assertEquals(1, metrics.count(JoinMetrics.DEAD_LETTERED));
        DeadLetter letter = DeadLetters.decode(deadLetters.get(0));
        assertEquals("orphans", letter.getSourceTopic());
        assertEquals(TrackingRejection.RECORD_TOO_LARGE, letter.getReason());
    }
}
