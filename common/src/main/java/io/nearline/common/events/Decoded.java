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
