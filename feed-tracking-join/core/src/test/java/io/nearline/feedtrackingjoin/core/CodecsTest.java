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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.deadletter.RejectionReason;
import io.nearline.tracking.avro.BrokerTrackingEvent;
import io.nearline.tracking.avro.JoinedTrackingEvent;
import io.nearline.tracking.avro.OrphanedFragments;
import io.nearline.tracking.avro.ScoredDocument;
import io.nearline.tracking.avro.TrackingFragment;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
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

    /** The outputs are written field by field: byte for byte what Avro writes from the generated classes. */
    @Property(tries = 200)
    void outputsAreTheBytesAvroWritesFromTheGeneratedClasses(@ForAll long seed) throws Exception {
        Random random = new Random(seed);
        List<Events.Fragment> fragments = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            fragments.add(randomFragment(random));
        }
        Events.BrokerEvent b = new Events.BrokerEvent(
                text(random),
                random.nextLong(),
                new LinkedHashSet<>(texts(random)),
                text(random),
                texts(random),
                text(random));
        Events.Joined joined = new Events.Joined(
                text(random),
                b,
                fragments,
                random.nextBoolean(),
                new TreeSet<>(texts(random)),
                random.nextLong(),
                random.nextInt());
        Events.Orphan orphan = new Events.Orphan(text(random), fragments);

        List<TrackingFragment> avroFragments = new ArrayList<>();
        fragments.forEach(f -> avroFragments.add(avro(f)));
        BrokerTrackingEvent avroBroker = new BrokerTrackingEvent(
                b.requestId(), b.ts(), new ArrayList<>(b.fanout()), b.viewer(), b.ranking(), b.modelVersion());
        assertArrayEquals(avroBytes(avroBroker), TrackingCodec.encode(b));
        for (int i = 0; i < fragments.size(); i++) {
            assertArrayEquals(avroBytes(avroFragments.get(i)), TrackingCodec.encode(fragments.get(i)));
        }
        assertArrayEquals(
                avroBytes(new JoinedTrackingEvent(
                        joined.requestId(),
                        avroBroker,
                        avroFragments,
                        joined.complete(),
                        new ArrayList<>(joined.missing()),
                        joined.joinLatencyMillis(),
                        joined.duplicatesDropped())),
                TrackingCodec.encode(joined));
        assertArrayEquals(
                avroBytes(new OrphanedFragments(orphan.requestId(), new ArrayList<>(orphan.nodes()), avroFragments)),
                TrackingCodec.encode(orphan));
    }

    private static Events.Fragment randomFragment(Random random) {
        List<Events.ScoredDoc> docs = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            Map<String, Double> features = new HashMap<>(); // in no order: written in key order
            for (int j = random.nextInt(5); j > 0; j--) {
                features.put(text(random), random.nextDouble());
            }
            docs.add(new Events.ScoredDoc(text(random), random.nextDouble(), features));
        }
        return new Events.Fragment(text(random), text(random), random.nextLong(), docs);
    }

    private static TrackingFragment avro(Events.Fragment f) {
        List<ScoredDocument> docs = new ArrayList<>();
        f.docs().forEach(d -> docs.add(new ScoredDocument(d.id(), d.score(), new TreeMap<>(d.features()))));
        return new TrackingFragment(f.requestId(), f.node(), f.ts(), docs);
    }

    private static String text(Random random) {
        String[] parts = {"", "r", "index-7", "dé", "日本", "a longer piece of text"};
        return parts[random.nextInt(parts.length)] + random.nextInt(100);
    }

    private static List<String> texts(Random random) {
        List<String> out = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            out.add(text(random));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static <T extends SpecificRecord> byte[] avroBytes(T record) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        new SpecificDatumWriter<>((Class<T>) record.getClass()).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
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
        byte[] appended = RequestStateCodec.append(RequestStateCodec.append(null, pending.get(0)), pending.get(1));
        assertArrayEquals(RequestStateCodec.encodeList(pending), appended, "appending is encoding the longer list");
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
