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

import io.nearline.common.avro.DeadLetter;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.metrics.Metrics;
import java.io.Serializable;

/**
 * The join's output port, the same on every engine: it counts each result, encodes it, holds it to
 * {@code join.output.max-bytes} (an output over the limit becomes a dead letter, see {@link
 * OutputLimit}) and hands the bytes to the engine's {@link Sink}. An engine only says where bytes go.
 */
public final class JoinOutput implements JoinPorts.Output {

    /** Which output topic a result goes to. */
    public enum Kind {
        JOINED,
        ORPHAN,
        LATE
    }

    /** What an engine provides: where the bytes of a result, or of the dead letter in its place, go. */
    public interface Sink {
        void send(Kind kind, String requestId, byte[] value);

        void deadLetter(byte[] deadLetter);
    }

    /** The output topics, named in the dead letter of a result over the limit. */
    public record Topics(String joined, String orphans, String late) implements Serializable {

        public static Topics of(JoinSettings settings) {
            return new Topics(settings.joinedTopic(), settings.orphansTopic(), settings.lateTopic());
        }

        String of(Kind kind) {
            return switch (kind) {
                case JOINED -> joined;
                case ORPHAN -> orphans;
                case LATE -> late;
            };
        }
    }

    private final OutputLimit limit;
    private final Topics topics;
    private final Sink sink;
    private final Metrics.Counter complete;
    private final Metrics.Counter partial;
    private final Metrics.Counter orphans;
    private final Metrics.Counter late;
    private final Metrics.Counter duplicates;
    private final Metrics.Counter deadLettered;
    private final Metrics.Histogram latency;

    public JoinOutput(Metrics metrics, OutputLimit limit, Topics topics, Sink sink) {
        this.limit = limit;
        this.topics = topics;
        this.sink = sink;
        complete = metrics.counter(JoinMetrics.COMPLETE);
        partial = metrics.counter(JoinMetrics.PARTIAL);
        orphans = metrics.counter(JoinMetrics.ORPHANS);
        late = metrics.counter(JoinMetrics.LATE);
        duplicates = metrics.counter(JoinMetrics.DUPLICATES);
        deadLettered = metrics.counter(JoinMetrics.DEAD_LETTERED);
        latency = metrics.histogram(JoinMetrics.LATENCY);
    }

    @Override
    public void joined(Events.Joined j, long lastNeededArrivalMillis) {
        (j.complete() ? complete : partial).inc();
        duplicates.inc(j.duplicatesDropped());
        if (j.complete()) {
            latency.record(Math.max(0, System.currentTimeMillis() - lastNeededArrivalMillis));
        }
        send(Kind.JOINED, j.requestId(), TrackingCodec.encode(j));
    }

    @Override
    public void orphan(Events.Orphan o) {
        orphans.inc();
        send(Kind.ORPHAN, o.requestId(), TrackingCodec.encode(o));
    }

    @Override
    public void late(Events.Late l) {
        late.inc();
        send(Kind.LATE, l.requestId(), TrackingCodec.encode(l));
    }

    private void send(Kind kind, String requestId, byte[] value) {
        DeadLetter tooLarge = limit.check(topics.of(kind), requestId, value);
        if (tooLarge == null) {
            sink.send(kind, requestId, value);
        } else {
            deadLettered.inc();
            sink.deadLetter(DeadLetters.encode(tooLarge));
        }
    }
}
