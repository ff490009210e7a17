package io.nearline.common.deadletter;

/**
 * Why a job rejected an input record: a stable, machine-readable {@code code} (it goes to the
 * dead-letter topic and to metrics) and a {@code detail} for a person. Each job names its own codes.
 */
public interface RejectionReason {

    String code();

    String detail();
}
