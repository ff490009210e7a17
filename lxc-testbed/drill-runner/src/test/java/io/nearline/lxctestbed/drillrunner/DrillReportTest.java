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
package io.nearline.lxctestbed.drillrunner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class DrillReportTest {

    private static Timeline.Second at(double t, Long lagMs) {
        return new Timeline.Second(t, 0, 0L, 0L, 0L, null, lagMs, 2);
    }

    @Test
    void theJobsConsistentThroughIsReportedBeforeAtWorstAndAtTheEnd() {
        List<Timeline.Second> history = new ArrayList<>();
        for (int t = 0; t < 20; t++) {
            history.add(at(t, 1_000L + t % 3 * 100)); // 1.0 to 1.2 s before the fault
        }
        for (int t = 20; t < 45; t++) {
            history.add(at(t, t < 25 ? null : (t - 20) * 1_000L)); // unread for 5 s, then falling behind
        }
        history.add(at(45, 800L));

        String line = DrillReport.consistentThrough(history, 20);

        for (String figure : List.of(
                "1.1 s behind the clock before the first fault",
                "24.0 s at worst (at t=44 s)",
                "0.8 s at its last reading (t=45 s)",
                "seconds without a reading: 5 of 46")) {
            assertTrue(line.contains(figure), () -> figure + " not in: " + line);
        }
    }

    @Test
    void aJobNeverReadAddsNothingToTheReport() {
        assertEquals("", DrillReport.consistentThrough(List.of(at(0, null), at(1, null)), 0));
    }

    @Test
    void theOldestPartitionCountsAndOneThatSettledNothingHasNoPointYet() {
        assertEquals(OptionalLong.of(1_500L), JobWatermark.oldestOf(Arrays.asList(1_700L, 0L, 1_500L, 1_900L)));
        assertEquals(OptionalLong.empty(), JobWatermark.oldestOf(List.of(0L, 0L)));
        assertEquals(OptionalLong.empty(), JobWatermark.oldestOf(List.of()));
    }
}
