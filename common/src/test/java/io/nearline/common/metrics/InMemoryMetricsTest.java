package io.nearline.common.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
