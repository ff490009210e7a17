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

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CatchUpTest {

    @Test
    void caughtUpOnceTheJobHasDoneWhatWasSentAtTheCheckBeforeAndNotInTheWarmUp() {
        AtomicLong done = new AtomicLong();
        CatchUp catchUp = new CatchUp(0, 10_000, done::get);
        done.set(5_000);
        assertFalse(catchUp.sent(5_000, 9_000), "in the warm-up");
        assertFalse(catchUp.sent(6_000, 10_000), "the first check only records what was sent");
        done.set(5_999);
        assertFalse(catchUp.sent(7_000, 10_100), "one event of the check before not done yet");
        done.set(7_000);
        assertFalse(catchUp.sent(7_500, 10_150), "less than 100 ms since the last check");
        assertTrue(catchUp.sent(8_000, 10_200), "everything sent at the check before is done");
        assertEquals(10_200, catchUp.caughtUpAt());
        assertEquals(10_200, catchUp.measuredFrom());
        assertFalse(catchUp.sent(9_000, 11_000), "only the first time");
    }

    @Test
    void aJobThatNeverKeepsUpIsNeverCaughtUp() {
        AtomicLong done = new AtomicLong();
        CatchUp catchUp = new CatchUp(0, 0, done::get);
        for (long t = 0; t < 60_000; t += 100) {
            done.set(t); // always more than a second behind
            assertFalse(catchUp.sent(t + 1_000, t));
        }
        assertEquals(Long.MAX_VALUE, catchUp.caughtUpAt());
        assertEquals(0, catchUp.measuredFrom(), "measured from the warm-up's end, flagged as never caught up");
    }

    @Test
    void aJobThatCatchesUpThenFallsBehindHasNotKeptUp() {
        AtomicLong done = new AtomicLong();
        CatchUp catchUp = new CatchUp(0, 0, done::get);
        long sent = 0;
        for (long t = 0; t <= 3_000; t += 100) { // 10 events a ms, the job right behind
            sent = t * 10;
            done.set(Math.max(0, sent - 500));
            catchUp.sent(sent, t);
        }
        assertTrue(catchUp.caughtUp());
        assertTrue(catchUp.keptUp(), "half a millisecond's events behind is keeping up");
        for (long t = 3_100; t <= 6_000; t += 100) { // the job stops at what it had done
            sent = t * 10;
            catchUp.sent(sent, t);
        }
        assertFalse(catchUp.keptUp(), "stalled for three seconds after catching up");
        assertEquals(4_000, catchUp.fellBehindAt(), "the first check where what was sent a second before is not done");
        assertTrue(catchUp.caughtUp(), "it did catch up once: the latch alone would call this run good");
    }

    @Test
    void aJobThatNeverCaughtUpHasNotKeptUp() {
        CatchUp catchUp = new CatchUp(0, 0, () -> 0);
        for (long t = 0; t < 5_000; t += 100) {
            catchUp.sent(t, t);
        }
        assertFalse(catchUp.keptUp());
    }
}
