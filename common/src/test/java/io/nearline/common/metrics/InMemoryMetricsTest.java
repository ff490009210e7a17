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
}
