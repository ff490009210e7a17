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
package io.nearline.localcluster.joinreplay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.jobs.kit.console.CpuUse;
import org.junit.jupiter.api.Test;

/** The replay's summary for machines: the cores a run cost beside its rate, and only where measured. */
class JoinReplaySummaryTest {

    @Test
    void theRatePerCoreIsOverTheJobsOwnThreads() throws Exception {
        JsonNode json = json(new CpuUse.Cores(0.8, 0.25, 0.6, 0.4));
        assertEquals(40_000, json.path("steadyEventsPerSec").asLong());
        assertEquals(0.8, json.path("cores").path("jobThreads").asDouble());
        assertEquals(0.25, json.path("cores").path("otherThreads").asDouble());
        assertEquals(0.6, json.path("cores").path("jvm").asDouble());
        assertEquals(0.4, json.path("cores").path("brokerProcess").asDouble());
        assertEquals(50_000, json.path("eventsPerJobCore").asLong(), "40,000 events/s on 0.8 of a core");
    }

    @Test
    void aRunWithoutTheCoresMeasuredHasNoPerCoreFigure() throws Exception {
        JsonNode json = json(null);
        assertFalse(json.has("cores"));
        assertFalse(json.has("eventsPerJobCore"));
    }

    private static JsonNode json(CpuUse.Cores cores) throws Exception {
        JoinReplay.Summary summary = new JoinReplay.Summary(
                "flink", 1000, 100, 90, 3, 2, 5, 0, 5000, 40_000, 10, 20, 30, Double.NaN, -1, false, false, cores);
        return new ObjectMapper().readTree(summary.toJson());
    }
}
