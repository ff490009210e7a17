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

import org.junit.jupiter.api.Test;

/** Where the join's pending events ask for their timer (the rest of the join is tested through the reference run). */
class TrackingJoinSliceTest {

    @Test
    void pendingEventsShareTheTimerAtTheEndOfTheirSlice() {
        assertEquals(0, TrackingJoin.sliceEnd(0));
        assertEquals(TrackingJoin.PENDING_SLICE_MILLIS, TrackingJoin.sliceEnd(1));
        assertEquals(TrackingJoin.PENDING_SLICE_MILLIS, TrackingJoin.sliceEnd(TrackingJoin.PENDING_SLICE_MILLIS));
        assertEquals(
                2 * TrackingJoin.PENDING_SLICE_MILLIS, TrackingJoin.sliceEnd(TrackingJoin.PENDING_SLICE_MILLIS + 1));
        assertEquals(
                Long.MAX_VALUE - 1,
                TrackingJoin.sliceEnd(Long.MAX_VALUE - 1),
                "its own time where the slice would overflow");
    }
}
