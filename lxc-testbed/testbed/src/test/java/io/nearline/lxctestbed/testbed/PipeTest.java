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
package io.nearline.lxctestbed.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.jobs.cluster.ClusterException;
import org.junit.jupiter.api.Test;

/**
 * What {@code testbed pipe} takes before it touches a node: a rate tc understands, a loss between 0 and
 * 100 %, a delay that is not negative; each mistake one line naming the option (the pipes themselves
 * are measured on real LXC nodes in LxcTestbedIT).
 */
class PipeTest {

    @Test
    void ratesAreReadInKbitPerSecondAsTcReadsThem() {
        assertEquals(0.5, Pipe.kbitPerSecond("500bit"), 1e-9);
        assertEquals(512, Pipe.kbitPerSecond("512kbit"), 1e-9);
        assertEquals(1_500, Pipe.kbitPerSecond("1.5mbit"), 1e-9);
        assertEquals(1_000_000, Pipe.kbitPerSecond("1gbit"), 1e-9);
    }

    @Test
    void aRateTcWouldNotTakeIsRefusedWithAnExample() {
        for (String wrong : new String[] {"1mb", "fast", "1 mbit", "-1mbit", "mbit", "1Mbit"}) {
            ClusterException e = assertThrows(ClusterException.class, () -> Pipe.kbitPerSecond(wrong), wrong);
            assertTrue(e.getMessage().contains("such as 512kbit"), e.getMessage());
            ClusterException option =
                    assertThrows(ClusterException.class, () -> new Pipe(wrong, 0, 0, null), "--bandwidth " + wrong);
            assertTrue(option.getMessage().startsWith("--bandwidth " + wrong), option.getMessage());
        }
    }

    @Test
    void lossAndDelayOutsideTheirRangeAreNamed() {
        assertTrue(assertThrows(ClusterException.class, () -> new Pipe(null, 0, 101, null))
                .getMessage()
                .startsWith("--loss 101%"));
        assertTrue(assertThrows(ClusterException.class, () -> new Pipe(null, 0, -1, null))
                .getMessage()
                .contains("give 0 to 100"));
        assertTrue(assertThrows(ClusterException.class, () -> new Pipe(null, -5, 0, null))
                .getMessage()
                .startsWith("--delay"));
    }

    @Test
    void theEdgesOfEachRangeAreTaken() {
        Pipe all = new Pipe("10gbit", 0, 100, "10.0.3.2");
        assertEquals(100, all.lossPercent());
        Pipe none = new Pipe(null, 0, 0, null);
        assertEquals(0, none.delayMillis());
        assertEquals(2_000_000, Pipe.kbitPerSecond(new Pipe("2gbit", 1, 0, null).bandwidth()), 1e-9);
    }
}
