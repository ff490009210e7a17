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
package io.nearline.localcluster.cdcreplay;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.localcluster.cdcreference.ReplayInput;
import io.nearline.localcluster.kit.runs.CatchUp;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.apache.kafka.common.utils.Utils;

/**
 * The change stream of {@code replay cdc --live-rate}: sent at a steady rate on a thread of its own
 * while the job runs, and the cache's staleness measured afterwards at the store. Staleness of a key
 * is the time from the send of its last event (its commit, as far as the cache can tell: a CDC
 * connector publishes a commit at once) to the write of that version into the store, as the record's
 * own write time says. Keys whose last event was sent in the warm-up, or before the job first kept up
 * with the stream after it (its start), are left out; if it never kept up, from the warm-up's end.
 */
final class LiveCdc {

    /** What the sender will have sent, known before it starts (the job runs until it has them all). */
    final KafkaReplay.Sent expected;

    /** Where each partition of the fresh CDC topic will end: the producer's own partitioning of the keys. */
    final Map<Integer, Long> ends = new TreeMap<>();

    private final Thread thread;
    private volatile CatchUp catchUp;
    private final Map<CacheKey, long[]> lastSent = new HashMap<>(); // key -> {scn, sent at}
    private volatile long lastSentAt;
    private volatile Exception failed;
    private volatile long sent;

    /** Where the live stream goes: the broker, the CDC topic and its partitions, the dead-letter topic. */
    record Target(String bootstrap, String cdcTopic, String deadLetterTopic, int partitions) {}

    /**
     * {@code opened}: whether the job has opened its writes; the stream starts then, not while the
     * engine still deploys the job. {@code written}: the job's count of events done.
     */
    LiveCdc(
            Target target,
            List<ReplayInput.Line> lines,
            int eventsPerSecond,
            long warmUpMillis,
            BooleanSupplier opened,
            LongSupplier written) {
        expected = expected(lines, target.partitions(), ends);
        thread = new Thread(
                () -> {
                    try {
                        catchUp = CatchUp.whenJobOpened(opened, warmUpMillis, written);
                        send(target, lines, eventsPerSecond, catchUp.startsAt());
                    } catch (Exception e) {
                        failed = e;
                    }
                },
                "live-cdc");
        thread.setDaemon(true);
        thread.start();
    }

    /** What the stream will hold, and where each partition ends ({@code ends}, filled here) once it is sent. */
    private static KafkaReplay.Sent expected(List<ReplayInput.Line> lines, int partitions, Map<Integer, Long> ends) {
        long events = 0;
        Set<CacheKey> keys = new LinkedHashSet<>();
        for (int p = 0; p < partitions; p++) {
            ends.put(p, 0L);
        }
        for (ReplayInput.Line line : lines) {
            if (line.record() != null) {
                if (line.record().key() == null) {
                    throw new IllegalArgumentException(line.file() + ":" + line.number()
                            + ": a live run needs every record keyed, to know where each partition ends");
                }
                // what Kafka's producer does with a keyed record
                ends.merge(Utils.toPositive(Utils.murmur2(line.record().key())) % partitions, 1L, Long::sum);
                events++;
                if (line.decoded().ok()) {
                    ChangeEvents.validCacheKey(line.decoded().event()).ifPresent(keys::add);
                }
            }
        }
        return new KafkaReplay.Sent(events, lines.size() - events, keys);
    }

    /** The lines at {@code eventsPerSecond} from {@code startMillis}, each key's last SCN sent noted. */
    private void send(Target target, List<ReplayInput.Line> lines, int eventsPerSecond, long startMillis)
            throws Exception {
        long[] index = {0};
        KafkaReplay.send(
                KafkaClient.plaintext(target.bootstrap()),
                target.cdcTopic(),
                target.deadLetterTopic(),
                lines,
                line -> {
                    long due = startMillis + index[0]++ * 1000 / eventsPerSecond;
                    pauseUntil(due);
                    lastSentAt = System.currentTimeMillis();
                    if (line.record() != null && line.decoded().ok()) {
                        long scn = line.decoded().event().getScn();
                        ChangeEvents.validCacheKey(line.decoded().event())
                                .ifPresent(k -> lastSent.put(k, new long[] {scn, lastSentAt}));
                    }
                },
                () -> {
                    sent++;
                    catchUp.sent(sent, lastSentAt);
                });
    }

    private static void pauseUntil(long due) {
        long wait = due - System.currentTimeMillis();
        if (wait > 0) {
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while pacing the live change stream", e);
            }
        }
    }

    /** From the last event sent to the job's end: how long it took to drain what it still held. */
    long drainMillis = -1;

    /** The job has ended: the stream must have been sent in full. */
    void finish() throws Exception {
        drainMillis = System.currentTimeMillis() - lastSentAt;
        thread.join();
        if (failed != null) {
            throw failed;
        }
    }

    /** Whether the job kept up with the stream after the warm-up; if not, staleness counts from the warm-up's end. */
    boolean caughtUp() {
        return catchUp != null && catchUp.caughtUp();
    }

    /** Caught up, and within a second of the stream from then to its end. */
    boolean keptUp() {
        return catchUp != null && catchUp.keptUp();
    }

    double offeredPerSec() {
        return catchUp == null ? 0 : sent * 1000.0 / Math.max(1, lastSentAt - catchUp.startsAt());
    }

    /**
     * Staleness (ms) into {@code histogram}, one sample per key whose stored version is its last one
     * sent after the warm-up; returns the keys whose stored version is not their last one sent.
     */
    long staleness(CacheStore store, Metrics.Histogram histogram) {
        long unmatched = 0;
        for (Map.Entry<CacheKey, long[]> e : lastSent.entrySet()) {
            long[] sentScnAndTime = e.getValue();
            if (sentScnAndTime[1] < catchUp.measuredFrom()) {
                continue;
            }
            Optional<CacheRecord> stored = store.get(e.getKey()).map(s -> CacheRecordCodec.decode(s.value()));
            if (stored.isPresent() && stored.get().version().scn().value() == sentScnAndTime[0]) {
                histogram.record(Math.max(0, stored.get().writeTimeMillis() - sentScnAndTime[1]));
            } else {
                unmatched++;
            }
        }
        return unmatched;
    }
}
