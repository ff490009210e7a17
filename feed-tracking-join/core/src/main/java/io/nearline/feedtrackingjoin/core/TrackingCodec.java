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

import io.nearline.common.schema.TrustedAvroClasses;
import io.nearline.tracking.avro.BrokerTrackingEvent;
import io.nearline.tracking.avro.JoinedTrackingEvent;
import io.nearline.tracking.avro.LateTrackingEvent;
import io.nearline.tracking.avro.OrphanedFragments;
import io.nearline.tracking.avro.ScoredDocument;
import io.nearline.tracking.avro.TrackingFragment;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * The tracking topics' Avro records and the join's events, both ways. Input decoding never throws:
 * a record that is not a valid event comes back with the reason, for the dead-letter topic.
 */
public final class TrackingCodec {

    static {
        TrustedAvroClasses.ensure(
                TrackingFragment.class,
                ScoredDocument.class,
                BrokerTrackingEvent.class,
                JoinedTrackingEvent.class,
                OrphanedFragments.class,
                LateTrackingEvent.class);
    }

    /** A decoded input record: the event, or why there is none. */
    public record Decoded(Events.Input event, TrackingRejection rejection) {
        public boolean ok() {
            return event != null;
        }
    }

    private TrackingCodec() {}

    public static Decoded decodeFragment(byte[] bytes) {
        TrackingFragment f;
        try {
            f = read(TrackingFragment.class, bytes);
        } catch (RuntimeException | IOException e) {
            return undecodable("index fragment", e);
        }
        Events.Fragment fragment = fragment(f);
        if (fragment.node().isEmpty()) {
            return invalid("empty node");
        }
        return checked(fragment);
    }

    public static Decoded decodeBroker(byte[] bytes) {
        BrokerTrackingEvent b;
        try {
            b = read(BrokerTrackingEvent.class, bytes);
        } catch (RuntimeException | IOException e) {
            return undecodable("broker event", e);
        }
        Events.BrokerEvent broker = broker(b);
        if (broker.fanout().isEmpty()) {
            return invalid("empty fanout");
        }
        return checked(broker);
    }

    private static Decoded checked(Events.Input e) {
        if (e.requestId().isEmpty()) {
            return invalid("empty requestId");
        }
        if (e.ts() < 0) {
            return invalid("negative event time " + e.ts());
        }
        return new Decoded(e, null);
    }

    private static Decoded undecodable(String what, Exception e) {
        return new Decoded(
                null, new TrackingRejection(TrackingRejection.UNDECODABLE, "not an Avro " + what + ": " + e));
    }

    private static Decoded invalid(String detail) {
        return new Decoded(null, new TrackingRejection(TrackingRejection.INVALID, detail));
    }

    /*
     * The outputs are written field by field in their schemas' order, straight from the join's events:
     * the same bytes as Avro's SpecificDatumWriter on the generated classes (CodecsTest compares them),
     * without building those classes first, which was a fifth of the join's time on Flink.
     */

    public static byte[] encode(Events.Fragment f) {
        return writeWith(out -> writeFragment(out, f));
    }

    public static byte[] encode(Events.BrokerEvent b) {
        return writeWith(out -> writeBroker(out, b));
    }

    public static byte[] encode(Events.Joined j) {
        return writeWith(out -> {
            out.writeString(j.requestId());
            writeBroker(out, j.broker());
            writeArray(out, j.fragments(), TrackingCodec::writeFragment);
            out.writeBoolean(j.complete());
            writeArray(out, j.missing(), Encoder::writeString);
            out.writeLong(j.joinLatencyMillis());
            out.writeInt(j.duplicatesDropped());
        });
    }

    public static byte[] encode(Events.Orphan o) {
        return writeWith(out -> {
            out.writeString(o.requestId());
            writeArray(out, o.nodes(), Encoder::writeString);
            writeArray(out, o.fragments(), TrackingCodec::writeFragment);
        });
    }

    private static void writeFragment(Encoder out, Events.Fragment f) throws IOException {
        out.writeString(f.requestId());
        out.writeString(f.node());
        out.writeLong(f.ts());
        writeArray(out, f.docs(), (o, d) -> {
            o.writeString(d.id());
            o.writeDouble(d.score());
            // in key order, as the generated class's copy (a TreeMap) is written
            Map<String, Double> features =
                    d.features() instanceof TreeMap<String, Double> sorted && sorted.comparator() == null
                            ? sorted
                            : new TreeMap<>(d.features());
            o.writeMapStart();
            o.setItemCount(features.size());
            for (Map.Entry<String, Double> e : features.entrySet()) {
                o.startItem();
                o.writeString(e.getKey());
                o.writeDouble(e.getValue());
            }
            o.writeMapEnd();
        });
    }

    private static void writeBroker(Encoder out, Events.BrokerEvent b) throws IOException {
        out.writeString(b.requestId());
        out.writeLong(b.ts());
        writeArray(out, b.fanout(), Encoder::writeString);
        out.writeString(b.viewer());
        writeArray(out, b.ranking(), Encoder::writeString);
        out.writeString(b.modelVersion());
    }

    private interface ItemWriter<T> {
        void write(Encoder out, T item) throws IOException;
    }

    private static <T> void writeArray(Encoder out, Collection<T> items, ItemWriter<T> item) throws IOException {
        out.writeArrayStart();
        out.setItemCount(items.size());
        for (T t : items) {
            out.startItem();
            item.write(out, t);
        }
        out.writeArrayEnd();
    }

    public static byte[] encode(Events.Late l) {
        return write(LateTrackingEvent.newBuilder()
                .setRequestId(l.requestId())
                .setKind(l.kind())
                .setNode(l.node())
                .setEventTimeMillis(l.ts())
                .setReason(l.reason().name())
                .build());
    }

    public static Events.Joined decodeJoined(byte[] bytes) throws IOException {
        JoinedTrackingEvent j = read(JoinedTrackingEvent.class, bytes);
        List<Events.Fragment> fragments = new ArrayList<>();
        j.getFragments().forEach(f -> fragments.add(fragment(f)));
        return new Events.Joined(
                j.getRequestId(),
                broker(j.getBroker()),
                fragments,
                j.getComplete(),
                new TreeSet<>(j.getMissingNodes()),
                j.getJoinLatencyMillis(),
                j.getDuplicatesDropped());
    }

    public static Events.Orphan decodeOrphan(byte[] bytes) throws IOException {
        OrphanedFragments o = read(OrphanedFragments.class, bytes);
        List<Events.Fragment> fragments = new ArrayList<>();
        o.getFragments().forEach(f -> fragments.add(fragment(f)));
        return new Events.Orphan(o.getRequestId(), fragments);
    }

    public static Events.Late decodeLate(byte[] bytes) throws IOException {
        LateTrackingEvent l = read(LateTrackingEvent.class, bytes);
        return new Events.Late(
                l.getRequestId(),
                l.getKind(),
                l.getNode(),
                l.getEventTimeMillis(),
                Events.LateReason.valueOf(l.getReason()));
    }

    private static Events.Fragment fragment(TrackingFragment f) {
        List<Events.ScoredDoc> docs = new ArrayList<>();
        for (ScoredDocument d : f.getDocs()) {
            docs.add(new Events.ScoredDoc(d.getId(), d.getScore(), new TreeMap<>(d.getFeatures())));
        }
        return new Events.Fragment(f.getRequestId(), f.getNode(), f.getEventTimeMillis(), docs);
    }

    private static Events.BrokerEvent broker(BrokerTrackingEvent b) {
        return new Events.BrokerEvent(
                b.getRequestId(),
                b.getEventTimeMillis(),
                new LinkedHashSet<>(b.getFanout()),
                b.getViewer(),
                new ArrayList<>(b.getRanking()),
                b.getModelVersion());
    }

    /** Readers and writers are costly to build and not thread-safe: one per class per thread. */
    private static final ThreadLocal<Map<Class<?>, SpecificDatumReader<?>>> READERS =
            ThreadLocal.withInitial(HashMap::new);

    private static final ThreadLocal<Map<Class<?>, SpecificDatumWriter<?>>> WRITERS =
            ThreadLocal.withInitial(HashMap::new);

    @SuppressWarnings("unchecked")
    private static <T extends SpecificRecord> T read(Class<T> type, byte[] bytes) throws IOException {
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, null);
        SpecificDatumReader<T> reader =
                (SpecificDatumReader<T>) READERS.get().computeIfAbsent(type, SpecificDatumReader::new);
        T record = reader.read(null, decoder);
        if (!decoder.isEnd()) {
            throw new IOException("trailing bytes after the record");
        }
        return record;
    }

    @SuppressWarnings("unchecked")
    private static <T extends SpecificRecord> byte[] write(T record) {
        return writeWith(encoder -> ((SpecificDatumWriter<T>)
                        WRITERS.get().computeIfAbsent(record.getClass(), SpecificDatumWriter::new))
                .write(record, encoder));
    }

    private interface Body {
        void write(Encoder out) throws IOException;
    }

    /** A buffered encoder per thread, reused: only the finished bytes are allocated per record. */
    private static final ThreadLocal<BinaryEncoder> ENCODERS = new ThreadLocal<>();

    private static byte[] writeWith(Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, ENCODERS.get());
        ENCODERS.set(encoder);
        try {
            body.write(encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
