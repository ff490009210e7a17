package io.nearline.common.deadletter;

import io.nearline.common.avro.DeadLetter;

/**
 * An input record as the job read it, with who read it: everything its dead letter needs. Every
 * engine builds its dead letters here, from the original key and bytes, so a rejected record looks
 * the same whichever engine rejected it and at whatever stage (intake or store).
 */
public record SourceRecord(String job, String topic, int partition, long offset, byte[] key, byte[] value) {

    /** This record's dead letter, stamped now. */
    public DeadLetter deadLetter(RejectionReason why) {
        return DeadLetters.of(this, why, System.currentTimeMillis());
    }
}
