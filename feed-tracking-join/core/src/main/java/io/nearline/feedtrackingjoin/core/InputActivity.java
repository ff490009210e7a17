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

/**
 * When one reader's input partition stops holding the watermark back, engine-neutral (Samza's task
 * and each Flink source subtask keep one). Processing time, in milliseconds.
 *
 * <p>Idleness is for a partition that is quiet while its neighbours are read: after
 * {@code idleTimeout} without an event it no longer holds the watermark. When every input of the
 * reader goes quiet at once, that is a <em>stall</em> (the broker restarts, the network is cut, the
 * consumer is rebalanced), not idleness: the events are still coming, with event times from during
 * the stall. Counting those partitions idle let the first one read again move the watermark through
 * its backlog while the others had not been read yet, so their requests were closed early and their
 * events came late. So during a stall no input counts idle, and when reading resumes each input gets
 * a full {@code idleTimeout} from that moment to deliver again.
 *
 * <p>A reader with nothing for {@code stallTimeout} counts idle as a whole (a topic that really has
 * no traffic must not hold the other topic's results back forever), and so does a reader that has
 * never read an event (a source subtask without partitions, or a topic not yet written).
 *
 * <p>Not thread-safe: one per reader.
 */
public final class InputActivity {

    private final long idleTimeoutMillis;
    private final long stallTimeoutMillis;
    private long lastAnyEvent = Long.MIN_VALUE;
    private long resumedAt = Long.MIN_VALUE;

    public InputActivity(long idleTimeoutMillis, long stallTimeoutMillis) {
        if (stallTimeoutMillis < idleTimeoutMillis) {
            throw new IllegalArgumentException("the stall timeout must be at least the idle timeout");
        }
        this.idleTimeoutMillis = idleTimeoutMillis;
        this.stallTimeoutMillis = stallTimeoutMillis;
    }

    /** An input this reader will read, seen at {@code nowMillis}: its idle timeout starts then. */
    public Input input(long nowMillis) {
        return new Input(nowMillis);
    }

    /** One input of the reader. Its own state is a field, so recording an event costs no lookup. */
    public final class Input {
        private long lastEvent;

        private Input(long seenAt) {
            this.lastEvent = seenAt;
        }

        /** An event of this input was read at {@code nowMillis}. */
        public void record(long nowMillis) {
            if (lastAnyEvent != Long.MIN_VALUE && nowMillis - lastAnyEvent >= idleTimeoutMillis) {
                resumedAt = nowMillis; // the end of a stall: every input gets a fresh idle timeout
            }
            lastAnyEvent = Math.max(lastAnyEvent, nowMillis);
            lastEvent = Math.max(lastEvent, nowMillis);
        }

        /** Whether this input no longer holds the watermark back at {@code nowMillis}. */
        public boolean isIdle(long nowMillis) {
            if (lastAnyEvent == Long.MIN_VALUE) {
                return nowMillis - lastEvent >= idleTimeoutMillis;
            }
            long readerQuiet = nowMillis - lastAnyEvent;
            if (readerQuiet >= stallTimeoutMillis) {
                return true;
            }
            if (readerQuiet >= idleTimeoutMillis) {
                return false; // a stall: every input is behind, none is idle
            }
            return nowMillis - Math.max(lastEvent, resumedAt) >= idleTimeoutMillis;
        }
    }
}
