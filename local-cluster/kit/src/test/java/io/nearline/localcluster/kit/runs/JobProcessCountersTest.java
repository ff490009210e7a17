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
package io.nearline.localcluster.kit.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.metrics.Metrics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How a crash test's job process hands its counters to the replay: it prints them as lines of their
 * own (the run's counts only, not the labelled Prometheus series) and once more when it ends; the
 * replay adds what each one grew by, so the counts of the killed process and of its successor (each
 * counting from zero) are summed, and a report read twice is not counted twice.
 */
class JobProcessCountersTest {

    /** What {@link JobProcess#reportCounters} printed while {@code counting} ran. */
    private static List<String> printed(InMemoryMetrics metrics, Runnable counting) throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            AutoCloseable reporter = JobProcess.reportCounters(metrics);
            counting.run();
            reporter.close();
        } finally {
            System.setOut(out);
        }
        return captured.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void theJobPrintsItsCountsAndOnceMoreAtTheEndButNotItsLabelledSeries() throws Exception {
        InMemoryMetrics job = new InMemoryMetrics();
        List<String> lines = printed(job, () -> {
            job.counter("events.received").inc(7);
            job.counter(Metrics.labelledName("events.received", Map.of("table", "profile")))
                    .inc(7);
        });
        assertFalse(lines.isEmpty());
        String last = lines.get(lines.size() - 1);
        assertTrue(last.startsWith(JobProcess.COUNTERS), last);
        assertTrue(last.contains("events.received=7,"), "the final count, printed after the job ended: " + last);
        assertFalse(last.contains("table"), "labelled series stay on the job's endpoint: " + last);
        assertTrue(lines.stream().allMatch(l -> l.startsWith(JobProcess.COUNTERS)), lines.toString());
    }

    @Test
    void theReplaySumsTheGrowthOfEachProcessAndCountsNoReportTwice() {
        InMemoryMetrics replay = new InMemoryMetrics();
        Map<String, Long> first = new HashMap<>();
        JobProcess.addGrowth("events.received=10,write.applied=4,", first, replay);
        JobProcess.addGrowth("events.received=10,write.applied=4,", first, replay); // the same report again
        JobProcess.addGrowth("events.received=25,write.applied=9,", first, replay);
        assertEquals(25, replay.count("events.received"));
        assertEquals(9, replay.count("write.applied"));

        // killed -9; the restarted process counts from zero, redoing some of what the first did
        Map<String, Long> second = new HashMap<>();
        JobProcess.addGrowth("events.received=5,", second, replay);
        JobProcess.addGrowth("events.received=30,write.applied=12,write.retries=1,", second, replay);
        assertEquals(55, replay.count("events.received"), "25 before the kill, 30 after: a repeat is counted again");
        assertEquals(21, replay.count("write.applied"));
        assertEquals(1, replay.count("write.retries"));
        assertEquals(Map.of("events.received", 30L, "write.applied", 12L, "write.retries", 1L), second);
    }

    @Test
    void aReportReadInTheWrongOrderNeverTakesACountBack() {
        InMemoryMetrics replay = new InMemoryMetrics();
        Map<String, Long> seen = new HashMap<>();
        JobProcess.addGrowth("events.received=20,", seen, replay);
        JobProcess.addGrowth("events.received=15,", seen, replay);
        JobProcess.addGrowth("events.received=21,,=3,noValue,", seen, replay);
        assertEquals(21, replay.count("events.received"));
        assertEquals(Map.of("events.received", 21L), seen, "pieces without a name or value are passed over");
    }
}
