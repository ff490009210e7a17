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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a job sustains, from a no-fault run's history; and a drill's load as a share of it. */
class BaselineTest {

    @TempDir
    Path store;

    /** A job that starts working at 20 s, then does 5,000 a second while 12,000 a second arrive for 40 s. */
    private static List<Timeline.Second> saturated() {
        List<Timeline.Second> h = new ArrayList<>();
        for (int t = 0; t <= 60; t++) {
            long sent = Math.min(t, 40) * 12_000L;
            long applied = t < 20 ? 0 : Math.min(sent, (t - 20) * 5_000L);
            h.add(new Timeline.Second(t, sent, applied, null, sent - applied, null, null, 2));
        }
        return h;
    }

    @Test
    void theSustainedRateIsTheSlopeWhileBehindOnceTheJobHasStarted() {
        assertEquals(5_000, Baseline.sustained(saturated(), 12_000), 1);
    }

    @Test
    void aJobThatKeptUpHasNoMeasuredCeiling() {
        List<Timeline.Second> keptUp = new ArrayList<>();
        for (int t = 0; t <= 40; t++) {
            keptUp.add(new Timeline.Second(t, t * 100L, t * 100L - 50, null, 50L, null, null, 2));
        }
        assertNull(Baseline.sustained(keptUp, 100));
    }

    @Test
    void aDrillLoadsAShareOfTheBaselineOrSaysItHasNone() throws Exception {
        Drill drill = Drill.read(Path.of("../drills/kill-node.yaml"));
        Baseline.Load none = Baseline.loadFor(drill, store, "cache-updater", "samza", 0.25);
        assertEquals(drill.loadRate(), none.rate());
        assertTrue(none.note().contains("no baseline"), none.note());
        Baseline.save(store, new Baseline.Measured("cache-updater", "samza", 6_000.0, 12_000, "now", "run"));
        Baseline.Load quarter = Baseline.loadFor(drill, store, "cache-updater", "samza", 0.25);
        assertEquals(1_500, quarter.rate());
        assertEquals(6_000.0, quarter.baselinePerSecond());
    }
}
