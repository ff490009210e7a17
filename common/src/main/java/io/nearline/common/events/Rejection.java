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

import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.RejectionReason;

/**
 * Why an input record cannot be processed. {@code reason} is a stable, machine-readable code (it
 * ends up in the dead-letter topic and in metrics); {@code detail} explains it to a person.
 */
public record Rejection(Reason reason, String detail) implements RejectionReason {

    public enum Reason {
        /** Not a change event at all: not Avro, not JSON, truncated. */
        UNDECODABLE,
        /** No key, or an empty one. */
        MISSING_KEY,
        /** A key longer than the cache allows (250 bytes in UTF-8). */
        KEY_TOO_LONG,
        /** An SCN that is negative or not a number. */
        BAD_SCN,
        /** An operation other than UPSERT or DELETE. */
        UNKNOWN_OP,
        /** A schema version the registry does not know, or a negative one. */
        UNKNOWN_SCHEMA_VERSION,
        /** A negative source partition. */
        BAD_PARTITION,
        /** An UPSERT without a payload. */
        MISSING_PAYLOAD,
        /** A payload over the configured limit. */
        OVERSIZED_PAYLOAD,
        /** With a schema registry: a payload that is not valid Avro under its table's schema of its version. */
        INVALID_PAYLOAD,
        /** A record larger than its topic accepts: a tool or producer could not send it (its value cut in the dead letter). */
        RECORD_TOO_LARGE,
        /** A valid event the store refused for good (e.g. it holds bytes this version cannot read). */
        STORE_REJECTED,
        /** A Debezium row with a column its connector did not capture that nothing cached can complete. */
        PARTIAL_IMAGE,
        /** A Debezium TRUNCATE: it names no keys, so the cache cannot apply it. */
        TRUNCATE,
        /** A Debezium change of a table that {@code cdc.debezium.tables} does not list, or that names no table. */
        UNKNOWN_TABLE
    }

    @Override
    public String code() {
        return reason.name();
    }

    public static Rejection of(Reason reason, String detail) {
        return new Rejection(reason, detail);
    }

    /** {@code what} ("a record", "snapshot row") of {@code bytes} that {@code topic} refused as too large. */
    public static Rejection tooLarge(String what, int bytes, String topic) {
        return of(
                Reason.RECORD_TOO_LARGE,
                what + " of " + bytes + " bytes is more than the topic " + topic
                        + " accepts (the broker's message.max.bytes); the value is cut to its first "
                        + DeadLetters.KEPT_BYTES_OF_TOO_LARGE + " bytes here");
    }
}
