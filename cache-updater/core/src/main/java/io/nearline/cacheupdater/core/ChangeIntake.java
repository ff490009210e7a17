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
package io.nearline.cacheupdater.core;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.events.ChangeDecoder;
import io.nearline.common.events.ChangeEventValidator;
import io.nearline.common.events.Decoded;
import io.nearline.common.events.Rejection;
import io.nearline.common.metrics.CounterFamily;
import io.nearline.common.metrics.Metrics;
import java.util.function.Consumer;

/**
 * What every runtime does with a CDC record before the write: decode it in the configured form,
 * validate it, and count it ({@code events.received}, {@code events.skipped}, {@code events.invalid}, and
 * {@code events.rejected} by {@code table} and {@code reason}).
 * Where a rejected record's dead letter goes is the runtime's.
 */
public final class ChangeIntake {

    private final ChangeDecoder decoder;
    private final ChangeEventValidator validator;
    private final Metrics.Counter received;
    private final Metrics.Counter invalid;
    private final Metrics.Counter skipped;
    private final CounterFamily rejectedBy;

    public ChangeIntake(ChangeDecoder decoder, ChangeEventValidator validator, Metrics metrics) {
        this.decoder = decoder;
        this.validator = validator;
        this.received = metrics.counter("events.received");
        this.invalid = metrics.counter("events.invalid");
        this.skipped = metrics.counter("events.skipped");
        this.rejectedBy = new CounterFamily(metrics, "events.rejected", "table", "reason");
    }

    /**
     * @return the change to write, or null: the record is skipped (a form's record that carries no
     *     change), or it is rejected, and then {@code rejected} has its reason
     */
    public ChangeEvent take(byte[] key, byte[] value, Consumer<Rejection> rejected) {
        received.inc();
        Decoded decoded = decoder.decode(key, value);
        if (decoded.isSkipped()) {
            skipped.inc();
            return null;
        }
        Rejection rejection = decoded.ok() ? validator.check(decoded.event()) : decoded.rejection();
        if (rejection != null) {
            refused(decoded.ok() ? decoded.event().getTable() : decoder.tableOf(key, value), rejection, rejected);
            return null;
        }
        return decoded.event();
    }

    /** A record the runtime itself refuses before decoding (e.g. a Connect record that is not raw bytes). */
    public void refuse(Rejection rejection, Consumer<Rejection> rejected) {
        received.inc();
        refused("", rejection, rejected);
    }

    /** {@code table}: "" when the record does not name one (or cannot be read far enough to). */
    private void refused(String table, Rejection rejection, Consumer<Rejection> rejected) {
        invalid.inc();
        rejectedBy.inc(table, rejection.code());
        rejected.accept(rejection);
    }
}
