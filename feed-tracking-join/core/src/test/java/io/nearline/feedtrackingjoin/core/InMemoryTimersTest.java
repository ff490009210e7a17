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
package io.nearline.feedtrackingjoin.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The in-memory timers Samza's task and the reference run keep: in time order, once each, taken back on request. */
class InMemoryTimersTest {

    private final InMemoryTimers timers = new InMemoryTimers();
    private final List<String> fired = new ArrayList<>();

    private void fireUpTo(long watermark) {
        timers.fireUpTo(watermark, (id, time) -> fired.add(id + "@" + time));
    }

    @Test
    void timesFireInOrderOnceEachUpToTheWatermark() {
        timers.register("b", 20);
        timers.register("a", 10);
        timers.register("c", 20);
        timers.register("b", 20); // asked twice: kept once
        timers.register("a", 30);
        fireUpTo(20);
        assertEquals(List.of("a@10", "b@20", "c@20"), fired);
        fireUpTo(25);
        assertEquals(3, fired.size(), "nothing due");
        fireUpTo(30);
        assertEquals("a@30", fired.get(3));
    }

    @Test
    void aTimeTakenBackDoesNotFireAndOthersAtItDo() {
        timers.register("a", 10);
        timers.register("b", 10);
        timers.delete("a", 10);
        timers.delete("x", 10); // never asked: nothing happens
        timers.delete("a", 99);
        fireUpTo(100);
        assertEquals(List.of("b@10"), fired);
    }

    @Test
    void aTimeRegisteredWhileFiringFiresInTheSameCallWhenDue() {
        timers.register("a", 10);
        timers.fireUpTo(50, (id, time) -> {
            fired.add(id + "@" + time);
            if (time == 10) {
                timers.register(id, 40); // the close of the window it opened
                timers.register(id, 60); // past the watermark: waits
            }
        });
        assertEquals(List.of("a@10", "a@40"), fired);
        timers.clear();
        fireUpTo(100);
        assertEquals(2, fired.size(), "cleared");
    }
}
