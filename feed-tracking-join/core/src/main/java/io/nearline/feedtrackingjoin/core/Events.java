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

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The events the join consumes and produces. On Kafka they are Avro ({@code avro/io/nearline/tracking},
 * {@link TrackingCodec}); tools use the JSON-lines forms of {@link TrackingText}.
 */
public final class Events {

    private Events() {}

    /** An input event: a fragment or a broker event, keyed by request, with its event time. */
    public sealed interface Input permits Fragment, BrokerEvent {
        String requestId();

        long ts();
    }

    /** A scored document as an index node reports it, with the features the model saw. */
    public record ScoredDoc(String id, double score, Map<String, Double> features) {
        public ScoredDoc(String id, double score) {
            this(id, score, Map.of());
        }
    }

    /** What one index node reports for a request. */
    public record Fragment(String requestId, String node, long ts, List<ScoredDoc> docs) implements Input {}

    /** What the broker reports for a request: which index nodes it fanned out to, and its result. */
    public record BrokerEvent(
            String requestId, long ts, Set<String> fanout, String viewer, List<String> ranking, String modelVersion)
            implements Input {}

    /**
     * One comprehensive event per request: complete when every expected fragment is in, partial (with
     * the missing nodes) when the request's window closed first.
     *
     * @param fragments         one per node, in node order
     * @param joinLatencyMillis event time from the last event the join needed to the emission
     */
    public record Joined(
            String requestId,
            BrokerEvent broker,
            List<Fragment> fragments,
            boolean complete,
            Set<String> missing,
            long joinLatencyMillis,
            int duplicatesDropped) {}

    /** Fragments whose broker event never came within the window, in node order. */
    public record Orphan(String requestId, List<Fragment> fragments) {
        public Set<String> nodes() {
            Set<String> nodes = new TreeSet<>();
            fragments.forEach(f -> nodes.add(f.node()));
            return nodes;
        }
    }

    /** Why an input event was not joined. */
    public enum LateReason {
        /** Older than its input partition's newest event by more than the allowed lateness. */
        BEHIND_PARTITION,
        /** Older than the job's watermark: its partition fell behind while it was counted idle. */
        BEHIND_WATERMARK,
        /** Its request was already joined or orphaned. */
        AFTER_EMISSION
    }

    /** An event the join did not use because it came too late: never a second joined event. */
    public record Late(String requestId, String kind, String node, long ts, LateReason reason) {
        public static Late of(Input e, LateReason reason) {
            return e instanceof Fragment f
                    ? new Late(f.requestId(), "fragment", f.node(), f.ts(), reason)
                    : new Late(e.requestId(), "broker", null, e.ts(), reason);
        }
    }
}
