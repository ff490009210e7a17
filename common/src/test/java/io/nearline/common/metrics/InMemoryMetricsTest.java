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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class InMemoryMetricsTest {

    @Test
    void countsAcrossThreadsAndHandles() {
        InMemoryMetrics metrics = new InMemoryMetrics();
        IntStream.range(0, 10_000).parallel().forEach(i -> metrics.counter("write.applied")
                .inc());
        metrics.counter("write.stale").inc(3);
        assertEquals(10_000, metrics.count("write.applied"));
        assertEquals(0, metrics.count("never.created"));
        assertEquals(Map.of("write.applied", 10_000L, "write.stale", 3L), metrics.snapshot());
    }

    @Test
    void tellsWhetherACounterWasAskedForSinceTheLastReset() {
        InMemoryMetrics metrics = new InMemoryMetrics();
        assertFalse(metrics.counterAskedFor("events.received"), "nothing opened yet");
        metrics.counter("events.received").inc();
        assertTrue(metrics.counterAskedFor("events.received"));
        metrics.reset();
        assertFalse(metrics.counterAskedFor("events.received"), "a new run: its job has not opened yet");
        assertEquals(0, metrics.count("events.received"));
        metrics.counter("events.received");
        assertTrue(metrics.counterAskedFor("events.received"), "asked for again by the new run");
    }

    @Test
    void labelsAreFoldedIntoTheNameInTheOrderGivenAndGaugesReadWhenAsked() {
        InMemoryMetrics metrics = new InMemoryMetrics();
        Metrics items = metrics.labelled("table", "public.items");
        items.labelled("le", "0.5").counter("freshness.bucket").inc(2);
        items.counter("freshness.count").inc();
        long[] watermark = {7};
        items.gauge("consistent-through", () -> watermark[0]);
        assertEquals(2, metrics.count("freshness.bucket{table=public.items,le=0.5}"));
        assertEquals(1, metrics.count("freshness.count{table=public.items}"));
        watermark[0] = 9;
        assertEquals(
                9, metrics.gaugeValue("consistent-through{table=public.items}").orElseThrow());
        assertTrue(metrics.gaugeValue("consistent-through").isEmpty(), "the unlabelled name is another series");
        metrics.reset();
        assertTrue(metrics.gaugeNames().isEmpty(), "a new run makes its gauges again");
    }
}
