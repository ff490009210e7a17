package io.nearline.cacheupdater.core.events;

import io.nearline.common.avro.ChangeEvent;

/** A decoded input record: a change event, or the reason it is not one. Exactly one is set. */
public record Decoded(ChangeEvent event, Rejection rejection) {

    public static Decoded ok(ChangeEvent event) {
        return new Decoded(event, null);
    }

    public static Decoded rejected(Rejection.Reason reason, String detail) {
        return new Decoded(null, Rejection.of(reason, detail));
    }

    public boolean ok() {
        return event != null;
    }
}
