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
package io.nearline.localcluster.cdcreference;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.common.metrics.InMemoryMetrics;
import java.io.PrintStream;

/**
 * What a replay did, in the counters every engine reports; printed at the end of {@code replay cdc}
 * and written with {@code --summary-json}. Rates are NaN when not measured.
 *
 * @param steadyEventsPerSec the job's rate between 10 % and 90 % of the events (start-up excluded)
 * @param rawConsumePerSec   one plain consumer reading the same topic, when measured
 */
public record ReplaySummary(
        String engine,
        long eventsRead,
        long applied,
        long stale,
        long duplicate,
        long superseded,
        long skipped,
        long deadLettered,
        long keys,
        long elapsedMillis,
        double steadyEventsPerSec,
        double rawConsumePerSec) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a replay counted itself: its engine, the lines it read, the dead letters and keys it read back. */
    public record Counts(String engine, long eventsRead, long deadLettered, long keys) {}

    /** The summary of a replay: its own counts, and the job's write outcomes from {@code metrics}. */
    public static ReplaySummary of(
            Counts counts,
            InMemoryMetrics metrics,
            long elapsedMillis,
            double steadyEventsPerSec,
            double rawConsumePerSec) {
        return new ReplaySummary(
                counts.engine(),
                counts.eventsRead(),
                metrics.count("write.applied"),
                metrics.count("write.stale"),
                metrics.count("write.duplicate"),
                metrics.count("write.superseded"),
                metrics.count("events.skipped"),
                counts.deadLettered(),
                counts.keys(),
                elapsedMillis,
                steadyEventsPerSec,
                rawConsumePerSec);
    }

    public void print(PrintStream out) {
        out.printf("replay cdc on %s: %,d events read, %.1f s in all%n", engine, eventsRead, elapsedMillis / 1000.0);
        out.printf(
                "  applied %,d  stale %,d  duplicate %,d  superseded in batch %,d  dead-lettered %,d%s%n",
                applied,
                stale,
                duplicate,
                superseded,
                deadLettered,
                skipped == 0 ? "" : String.format("  skipped %,d (Debezium tombstones)", skipped));
        if (!Double.isNaN(steadyEventsPerSec)) {
            out.printf("  job rate %,.0f events/s (steady, 10%%..90%% of the events)%n", steadyEventsPerSec);
        }
        if (!Double.isNaN(rawConsumePerSec)) {
            out.printf(
                    "  raw consume of the same topic %,.0f records/s; job / raw = %.2f%n",
                    rawConsumePerSec, steadyEventsPerSec / rawConsumePerSec);
        }
        out.printf("  final state: %,d keys%n", keys);
    }

    public String toJson() {
        ObjectNode node = JSON.createObjectNode();
        node.put("engine", engine);
        node.put("eventsRead", eventsRead);
        node.put("eventsApplied", applied);
        node.put("eventsStale", stale);
        node.put("eventsDuplicate", duplicate);
        node.put("eventsSuperseded", superseded);
        node.put("eventsSkipped", skipped);
        node.put("deadLettered", deadLettered);
        node.put("keys", keys);
        node.put("elapsedMillis", elapsedMillis);
        if (!Double.isNaN(steadyEventsPerSec)) {
            node.put("steadyEventsPerSec", Math.round(steadyEventsPerSec));
        }
        if (!Double.isNaN(rawConsumePerSec)) {
            node.put("rawConsumePerSec", Math.round(rawConsumePerSec));
        }
        return node.toString();
    }
}
