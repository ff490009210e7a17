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
package io.nearline.common.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.LongSupplier;

/**
 * The metrics port job logic reports through. Engine adapters bind it to Flink metric groups or the
 * Samza metrics registry; tools and tests use {@link InMemoryMetrics}. Names are dotted and stable
 * (they are documented per job), e.g. {@code write.applied}.
 */
public interface Metrics {

    Counter counter(String name);

    /** A distribution of values (latencies in ms, say); ports that keep none ignore it. */
    default Histogram histogram(String name) {
        return value -> {};
    }

    /** A value read whenever the metric is reported (a watermark, say); ports that report none ignore it. */
    default void gauge(String name, LongSupplier value) {}

    /**
     * The same port with one more label on every metric made from it ({@code table}, {@code partition},
     * {@code le}). A port without labels of its own folds them into the name, as {@link #labelledName}
     * writes it. Make each labelled metric once and keep it: a runtime may refuse a second one of the
     * same name and labels.
     */
    default Metrics labelled(String key, String value) {
        return new Folded(this, Map.of(key, value));
    }

    /** {@code labels} and one more, in order: what a labelled view of a port carries. */
    static Map<String, String> plusLabel(Map<String, String> labels, String key, String value) {
        Map<String, String> more = new LinkedHashMap<>(labels);
        more.put(key, value);
        return more;
    }

    /** A name with its labels, as ports without labels keep it: {@code freshness.bucket{table=t,le=0.5}}. */
    static String labelledName(String name, Map<String, String> labels) {
        if (labels.isEmpty()) {
            return name;
        }
        StringJoiner joined = new StringJoiner(",", name + "{", "}");
        labels.forEach((k, v) -> joined.add(k + "=" + v));
        return joined.toString();
    }

    /** Whether {@code name} is a labelled series as {@link #labelledName} writes it, not a plain count. */
    static boolean isLabelled(String name) {
        return name.endsWith("}");
    }

    /** Labels folded into the names of a port that has none. */
    final class Folded implements Metrics {
        private final Metrics names;
        private final Map<String, String> labels;

        Folded(Metrics names, Map<String, String> labels) {
            this.names = names;
            this.labels = labels;
        }

        @Override
        public Counter counter(String name) {
            return names.counter(labelledName(name, labels));
        }

        @Override
        public Histogram histogram(String name) {
            return names.histogram(labelledName(name, labels));
        }

        @Override
        public void gauge(String name, LongSupplier value) {
            names.gauge(labelledName(name, labels), value);
        }

        @Override
        public Metrics labelled(String key, String value) {
            return new Folded(names, plusLabel(labels, key, value));
        }
    }

    /** A monotonically increasing count. */
    interface Counter {
        void inc(long n);

        default void inc() {
            inc(1);
        }
    }

    /** Values whose distribution is reported (percentiles). */
    interface Histogram {
        void record(long value);
    }

    /** Discards everything: for code paths where nobody listens. */
    Metrics NONE = name -> n -> {};
}
