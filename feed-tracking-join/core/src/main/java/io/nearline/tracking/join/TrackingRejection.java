package io.nearline.tracking.join;

import io.nearline.common.deadletter.RejectionReason;

/** Why a tracking input record cannot be joined; it goes to the dead-letter topic with this reason. */
public record TrackingRejection(String code, String detail) implements RejectionReason {

    /** Not an Avro record of the topic's schema. */
    public static final String UNDECODABLE = "UNDECODABLE";
    /** An empty request id, node, or fan-out; a negative event time. */
    public static final String INVALID = "INVALID";
    /** An output over {@code join.output.max-bytes}, dead-lettered instead of sent (see {@link OutputLimit}). */
    public static final String RECORD_TOO_LARGE = "RECORD_TOO_LARGE";
}
