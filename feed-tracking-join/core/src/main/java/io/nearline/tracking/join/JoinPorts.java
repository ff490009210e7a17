package io.nearline.tracking.join;

import java.util.Optional;

/** What the join needs from an engine: keyed state, event-time timers, outputs. */
public final class JoinPorts {

    private JoinPorts() {
    }

    /** Per-request state (Flink keyed RocksDB state; a Samza RocksDB store). */
    public interface State {
        Optional<RequestState> get(String requestId);

        void put(String requestId, RequestState state);

        void remove(String requestId);
    }

    /** Event-time timers per request; the engine calls {@link TrackingJoin#onTimer} when one fires. */
    public interface Timers {
        void register(String requestId, long eventTime);

        /** The engine's current event-time watermark. */
        long currentWatermark();
    }

    /** Where results go. */
    public interface Output {
        void joined(Events.Joined joined);

        void orphan(Events.Orphan orphan);

        void late(Events.Late late);
    }
}
