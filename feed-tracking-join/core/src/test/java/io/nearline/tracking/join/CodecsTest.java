package io.nearline.tracking.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.deadletter.RejectionReason;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class CodecsTest {

    private final Events.Fragment fragment = new Events.Fragment(
            "r1", "index-3", 42, List.of(new Events.ScoredDoc("d1", 0.25, new TreeMap<>(Map.of("ctr", 0.5)))));
    private final Events.BrokerEvent broker = new Events.BrokerEvent(
            "r1", 50, new LinkedHashSet<>(List.of("index-3", "index-1")), "v9", List.of("d1"), "model-3");

    @Test
    void inputEventsRoundTripThroughAvro() {
        assertEquals(
                fragment,
                TrackingCodec.decodeFragment(TrackingCodec.encode(fragment)).event());
        assertEquals(
                broker, TrackingCodec.decodeBroker(TrackingCodec.encode(broker)).event());
    }

    @Test
    void outputsRoundTripThroughAvro() throws Exception {
        Events.Joined joined =
                new Events.Joined("r1", broker, List.of(fragment), false, new TreeSet<>(Set.of("index-1")), 990, 2);
        assertEquals(joined, TrackingCodec.decodeJoined(TrackingCodec.encode(joined)));
        Events.Orphan orphan = new Events.Orphan("r2", List.of(fragment));
        assertEquals(orphan, TrackingCodec.decodeOrphan(TrackingCodec.encode(orphan)));
        Events.Late late = new Events.Late("r1", "fragment", "index-3", 42, Events.LateReason.BEHIND_PARTITION);
        assertEquals(late, TrackingCodec.decodeLate(TrackingCodec.encode(late)));
    }

    @Test
    void badInputComesBackWithTheReasonInsteadOfThrowing() {
        RejectionReason garbage = TrackingCodec.decodeFragment("not avro at all".getBytes(StandardCharsets.UTF_8))
                .rejection();
        assertEquals(TrackingRejection.UNDECODABLE, garbage.code());
        assertEquals(
                TrackingRejection.UNDECODABLE,
                TrackingCodec.decodeBroker(TrackingCodec.encode(fragment))
                        .rejection()
                        .code(),
                "a fragment on the broker topic");
        TrackingCodec.Decoded noFanout = TrackingCodec.decodeBroker(
                TrackingCodec.encode(new Events.BrokerEvent("r1", 1, Set.of(), "v", List.of(), "m")));
        assertFalse(noFanout.ok());
        assertTrue(noFanout.rejection().detail().contains("fanout"));
        assertEquals(
                TrackingRejection.INVALID,
                TrackingCodec.decodeFragment(TrackingCodec.encode(new Events.Fragment("", "n", 1, List.of())))
                        .rejection()
                        .code());
        assertEquals(
                TrackingRejection.INVALID,
                TrackingCodec.decodeFragment(TrackingCodec.encode(new Events.Fragment("r", "n", -5, List.of())))
                        .rejection()
                        .code());
    }

    @Test
    void requestStateRoundTripsThroughItsStoreFormat() {
        List<RequestState.Pending> pending =
                List.of(new RequestState.Pending(fragment, 1234), new RequestState.Pending(broker, 1235));
        assertEquals(pending, RequestStateCodec.decodeList(RequestStateCodec.encodeList(pending)));
        assertEquals(pending.get(0), RequestStateCodec.decodePending(RequestStateCodec.encode(pending.get(0))));
        RequestState s = new RequestState();
        s.broker = broker;
        s.fragments.put(fragment.node(), fragment);
        s.duplicates = 3;
        s.windowEnd = 10_042;
        s.lastNeededTs = 50;
        s.lastNeededArrival = 1235;
        RequestState back = RequestStateCodec.decode(RequestStateCodec.encode(s));
        assertEquals(s.broker, back.broker);
        assertEquals(s.fragments, back.fragments);
        assertEquals(
                List.of(s.duplicates, s.windowEnd, s.lastNeededTs, s.lastNeededArrival, s.emitted),
                List.of(back.duplicates, back.windowEnd, back.lastNeededTs, back.lastNeededArrival, back.emitted));
        byte[] future = RequestStateCodec.encode(s);
        future[0] = 9;
        assertTrue(assertThrows(IllegalStateException.class, () -> RequestStateCodec.decode(future))
                .getMessage()
                .contains("format 9"));
    }
}
