package io.nearline.tracking.join;

import java.util.List;
import java.util.Set;

/** The events the join consumes and produces (text forms in DESIGN §4; Avro schemas come with the jobs). */
public final class Events {

    private Events() {
    }

    /** A scored document as an index node reports it. */
    public record ScoredDoc(String id, double score) {
    }

    /** What one index node reports for a request. */
    public record Fragment(String requestId, String node, long ts, List<ScoredDoc> docs) {
    }

    /** What the broker reports for a request: which index nodes it fanned out to, and its result. */
    public record BrokerEvent(String requestId, long ts, Set<String> fanout, String viewer, List<String> ranking,
                              String modelVersion) {
    }

    /**
     * One comprehensive event per request: complete when every expected fragment is in, partial (with
     * the missing nodes) when the request's window closed first.
     *
     * @param joinLatencyMillis event time from the last fragment or broker event needed to the emission
     */
    public record Joined(String requestId, BrokerEvent broker, List<Fragment> fragments, boolean complete,
                         Set<String> missing, long joinLatencyMillis, int duplicatesDropped) {
    }

    /** Fragments whose broker event never came within the window. */
    public record Orphan(String requestId, Set<String> nodes) {
    }

    /** An event for a request that was already emitted: never a second joined event. */
    public record Late(String requestId, String kind, String node, long ts) {
    }
}
