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
