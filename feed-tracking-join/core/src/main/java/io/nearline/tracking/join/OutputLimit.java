package io.nearline.tracking.join;

import io.nearline.common.avro.DeadLetter;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.SourceRecord;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;

/**
 * The largest output the join sends ({@code join.output.max-bytes}). A topic refuses a record over
 * its limit, and a job that failed on one would fail on it again after every restart; so an output
 * over the limit goes to the dead letters instead: reason {@code RECORD_TOO_LARGE}, the output topic
 * as its source (no partition or offset: it was never written), the request id as its key, its first
 * 64 KiB as its value.
 */
public record OutputLimit(String job, int maxBytes) implements Serializable {

    public static OutputLimit of(JoinSettings settings) {
        return new OutputLimit(settings.consumerGroup(), settings.outputMaxBytes());
    }

    /** Null when {@code value}, an output for {@code topic}, fits; else the dead letter that takes its place. */
    public DeadLetter check(String topic, String requestId, byte[] value) {
        if (value.length <= maxBytes) {
            return null;
        }
        return DeadLetters.of(
                new SourceRecord(
                        job, topic, -1, -1, requestId.getBytes(StandardCharsets.UTF_8), DeadLetters.head(value)),
                new TrackingRejection(
                        TrackingRejection.RECORD_TOO_LARGE,
                        "an output of " + value.length + " bytes for " + topic + " is over join.output.max-bytes ("
                                + maxBytes + ")"),
                System.currentTimeMillis());
    }
}
