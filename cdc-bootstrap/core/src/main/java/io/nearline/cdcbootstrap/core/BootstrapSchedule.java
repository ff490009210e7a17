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
package io.nearline.cdcbootstrap.core;

import java.time.Duration;
import java.time.Instant;

/**
 * The periodic bootstrap's clock: a bootstrap is due once a period has passed since the last one
 * started, and overdue once a period has passed since the last one completed (the cache then holds
 * records the next bootstrap should already have rewritten; at {@code ttl} after the last
 * completion, keys no update touched start to expire).
 */
public record BootstrapSchedule(Duration period, Duration ttl) {

    public enum State {
        OK,
        DUE,
        OVERDUE,
        NEVER_RUN
    }

    public BootstrapSchedule {
        if (period.compareTo(ttl) >= 0) {
            throw new IllegalArgumentException(
                    "bootstrap.period (" + period + ") must be shorter than cache.ttl (" + ttl + ")");
        }
    }

    public State state(Instant lastStarted, Instant lastCompleted, Instant now) {
        if (lastCompleted == null) {
            return lastStarted == null ? State.NEVER_RUN : State.DUE;
        }
        if (!now.isBefore(lastCompleted.plus(period))) {
            return State.OVERDUE;
        }
        return lastStarted != null && !now.isBefore(lastStarted.plus(period)) ? State.DUE : State.OK;
    }

    /** How long until keys only the last bootstrap wrote start to expire. */
    public Duration marginBeforeExpiry(Instant lastCompleted, Instant now) {
        return Duration.between(now, lastCompleted.plus(ttl));
    }
}
