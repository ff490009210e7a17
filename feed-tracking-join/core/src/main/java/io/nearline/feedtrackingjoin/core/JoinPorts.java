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
package io.nearline.feedtrackingjoin.core;

import java.util.List;
import java.util.Optional;

/** What the join needs from an engine: keyed state, event-time timers, outputs. */
public final class JoinPorts {

    private JoinPorts() {}

    /** Per-request state (Flink keyed RocksDB state; a Samza RocksDB store). */
    public interface State {
        Optional<RequestState> get(String requestId);

        void put(String requestId, RequestState state);

        void remove(String requestId);
    }

    /** Events that arrived and wait for the watermark (Flink keyed list state; Samza's store). */
    public interface Pending {
        void add(String requestId, RequestState.Pending event);

        /**
         * {@link #add} for an event still in its stored form ({@link RequestStateCodec#encode(RequestState.Pending)}):
         * an engine that has those bytes stores them as they are.
         */
        default void addEncoded(String requestId, byte[] encoded) {
            add(requestId, RequestStateCodec.decodePending(encoded));
        }

        /** Removes and returns the request's pending events with an event time at or before {@code time}. */
        List<RequestState.Pending> takeUpTo(String requestId, long time);
    }

    /**
     * Event-time timers per request: once the watermark reaches a registered time, the engine calls
     * {@link TrackingJoin#onTimer}, in time order per request. Registering a time twice may fire once.
     */
    public interface Timers {
        void register(String requestId, long eventTime);

        /**
         * Takes back a time {@code requestId} asked for and no longer needs. An engine may fire it anyway:
         * the join then finds nothing to do.
         */
        void delete(String requestId, long eventTime);

        /** The engine's current event-time watermark: no event at or before it is expected any more. */
        long currentWatermark();
    }

    /** Where results go. */
    public interface Output {
        /**
         * @param lastNeededArrivalMillis processing time at which the last event the join needed arrived
         *                                (the engine measures join latency in processing time from it)
         */
        void joined(Events.Joined joined, long lastNeededArrivalMillis);

        void orphan(Events.Orphan orphan);

        void late(Events.Late late);
    }
}
