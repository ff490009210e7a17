package io.nearline.tracking.join;

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
