package io.nearline.common.events;

import io.nearline.common.avro.ChangeEvent;

/**
 * A decoded input record: a change event, the reason it is not one, or why it carries nothing to
 * apply (a Debezium tombstone that follows a delete). Exactly one is set.
 */
public record Decoded(ChangeEvent event, Rejection rejection, String skipped) {

    public static Decoded ok(ChangeEvent event) {
        return new Decoded(event, null, null);
    }

    public static Decoded rejected(Rejection.Reason reason, String detail) {
        return new Decoded(null, Rejection.of(reason, detail), null);
    }

    /** Nothing to apply and nothing wrong: counted as {@code events.skipped}, neither written nor dead-lettered. */
    public static Decoded skip(String why) {
        return new Decoded(null, null, why);
    }

    public boolean ok() {
        return event != null;
    }

    public boolean isSkipped() {
        return skipped != null;
    }
}
