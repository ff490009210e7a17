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

import io.nearline.common.metrics.Metrics;
import io.nearline.common.version.Version;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

/**
 * What the write path reports about freshness, per source table and input partition:
 *
 * <ul>
 *   <li>{@code freshness.bucket} (label {@code le}, seconds), {@code freshness.count} and
 *       {@code freshness.sum-ms}: a histogram of the time from a change's commit at the source to its
 *       write being durable, as bucket counters — every runtime reports counters, so the histogram is
 *       the same on each;
 *   <li>{@code freshness-ms}: the same time, job-wide, as a histogram of the runtime's own kind
 *       (percentiles in a local run's summary, Flink's quantiles);
 *   <li>{@code consistent-through}: the partition's watermark ({@link ConsistentThrough}), the source
 *       commit time in epoch ms up to which every change taken from the partition is durable.
 * </ul>
 *
 * A change is settled when the cut that holds it has been written: applied, found stale or duplicate,
 * superseded by a newer change of its key in the same cut, or refused for good (then dead-lettered
 * before the engine commits its input position). A change whose commit time is not known (0) moves the
 * watermark but adds nothing to the histogram.
 */
final class WriteFreshness {

    /** Upper bounds of the histogram's buckets, in seconds (the last one, +Inf, is implied). */
    static final double[] BUCKETS = {0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300};

    private final Metrics metrics;
    private final LongSupplier clock;
    private final ConsistentThrough through = new ConsistentThrough();
    private final Map<Series, Histogram> histograms = new ConcurrentHashMap<>();
    private final Metrics.Histogram jobWide;

    /** A change taken into the batch, until its cut is written: its series' histogram, ready for the write. */
    record Taken(Histogram histogram, long commitTimeMillis, ConsistentThrough.Ticket ticket) {}

    /** One table's changes on one input partition. */
    record Series(String table, int partition) {}

    WriteFreshness(Metrics metrics, LongSupplier clock) {
        this.metrics = metrics;
        this.clock = clock;
        this.jobWide = metrics.histogram("freshness-ms");
    }

    Taken taken(String table, int partition, long commitTimeMillis, Version version) {
        Histogram histogram = histograms.computeIfAbsent(new Series(table, partition), this::open);
        return new Taken(histogram, commitTimeMillis, through.taken(partition, commitTimeMillis, version));
    }

    /** Each (table, partition) seen so far with its partition's watermark. */
    void forEachSeries(BiConsumer<Series, ConsistentThrough.Through> each) {
        for (Series series : histograms.keySet()) {
            ConsistentThrough.Through where = through.where(series.partition());
            if (where != null) {
                each.accept(series, where);
            }
        }
    }

    /** The changes of a written cut are settled now. */
    void settled(List<Taken> changes) {
        long now = clock.getAsLong();
        for (Taken t : changes) {
            through.durable(t.ticket());
            if (t.commitTimeMillis() > 0) {
                long millis = Math.max(0, now - t.commitTimeMillis());
                t.histogram().record(millis);
                jobWide.record(millis);
            }
        }
    }

    private Histogram open(Series series) {
        Metrics labelled =
                metrics.labelled("table", series.table()).labelled("partition", Integer.toString(series.partition()));
        labelled.gauge("consistent-through", () -> through.through(series.partition()));
        return new Histogram(labelled);
    }

    /** One series' bucket counters: cumulative, as Prometheus reads a histogram. */
    static final class Histogram {
        private final Metrics.Counter[] buckets = new Metrics.Counter[BUCKETS.length + 1];
        private final Metrics.Counter count;
        private final Metrics.Counter sumMillis;

        Histogram(Metrics labelled) {
            for (int i = 0; i < BUCKETS.length; i++) {
                buckets[i] = labelled.labelled("le", bound(BUCKETS[i])).counter("freshness.bucket");
            }
            buckets[BUCKETS.length] = labelled.labelled("le", "+Inf").counter("freshness.bucket");
            count = labelled.counter("freshness.count");
            sumMillis = labelled.counter("freshness.sum-ms");
        }

        void record(long millis) {
            for (int i = 0; i < BUCKETS.length; i++) {
                if (millis <= BUCKETS[i] * 1000) {
                    buckets[i].inc();
                }
            }
            buckets[BUCKETS.length].inc();
            count.inc();
            sumMillis.inc(millis);
        }

        /** As Prometheus writes a bound: 0.05, 1, 2.5, 300. */
        private static String bound(double seconds) {
            return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
        }
    }
}
