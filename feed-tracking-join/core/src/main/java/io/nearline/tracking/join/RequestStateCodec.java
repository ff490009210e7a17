package io.nearline.tracking.join;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@link RequestState} as bytes, for the engines' state stores (Flink keyed RocksDB state, a Samza
 * RocksDB store). A leading format version lets a later release read state written by this one.
 */
public final class RequestStateCodec {

    private static final byte FORMAT = 1;
    private static final byte FRAGMENT = 0;
    private static final byte BROKER = 1;

    private RequestStateCodec() {
    }

    public static byte[] encode(RequestState s) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeLong(s.windowEnd);
            out.writeLong(s.lastNeededTs);
            out.writeLong(s.lastNeededArrival);
            out.writeInt(s.duplicates);
            out.writeBoolean(s.emitted);
            out.writeBoolean(s.broker != null);
            if (s.broker != null) {
                writeBroker(out, s.broker);
            }
            out.writeInt(s.fragments.size());
            for (Events.Fragment f : s.fragments.values()) {
                writeFragment(out, f);
            }
            out.writeInt(s.pending.size());
            for (RequestState.Pending p : s.pending) {
                out.writeLong(p.arrivedAtMillis());
                if (p.event() instanceof Events.Fragment f) {
                    out.writeByte(FRAGMENT);
                    writeFragment(out, f);
                } else {
                    out.writeByte(BROKER);
                    writeBroker(out, (Events.BrokerEvent) p.event());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static RequestState decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            byte format = in.readByte();
            if (format != FORMAT) {
                throw new IllegalStateException("join state in format " + format + ", this version reads " + FORMAT);
            }
            RequestState s = new RequestState();
            s.windowEnd = in.readLong();
            s.lastNeededTs = in.readLong();
            s.lastNeededArrival = in.readLong();
            s.duplicates = in.readInt();
            s.emitted = in.readBoolean();
            if (in.readBoolean()) {
                s.broker = readBroker(in);
            }
            for (int i = in.readInt(); i > 0; i--) {
                Events.Fragment f = readFragment(in);
                s.fragments.put(f.node(), f);
            }
            for (int i = in.readInt(); i > 0; i--) {
                long arrived = in.readLong();
                Events.Input e = in.readByte() == FRAGMENT ? readFragment(in) : readBroker(in);
                s.pending.add(new RequestState.Pending(e, arrived));
            }
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt join state", e);
        }
    }

    private static void writeFragment(DataOutputStream out, Events.Fragment f) throws IOException {
        out.writeUTF(f.requestId());
        out.writeUTF(f.node());
        out.writeLong(f.ts());
        out.writeInt(f.docs().size());
        for (Events.ScoredDoc d : f.docs()) {
            out.writeUTF(d.id());
            out.writeDouble(d.score());
            out.writeInt(d.features().size());
            for (Map.Entry<String, Double> e : d.features().entrySet()) {
                out.writeUTF(e.getKey());
                out.writeDouble(e.getValue());
            }
        }
    }

    private static Events.Fragment readFragment(DataInputStream in) throws IOException {
        String requestId = in.readUTF();
        String node = in.readUTF();
        long ts = in.readLong();
        List<Events.ScoredDoc> docs = new ArrayList<>();
        for (int i = in.readInt(); i > 0; i--) {
            String id = in.readUTF();
            double score = in.readDouble();
            Map<String, Double> features = new TreeMap<>();
            for (int j = in.readInt(); j > 0; j--) {
                features.put(in.readUTF(), in.readDouble());
            }
            docs.add(new Events.ScoredDoc(id, score, features));
        }
        return new Events.Fragment(requestId, node, ts, docs);
    }

    private static void writeBroker(DataOutputStream out, Events.BrokerEvent b) throws IOException {
        out.writeUTF(b.requestId());
        out.writeLong(b.ts());
        writeStrings(out, b.fanout());
        out.writeUTF(b.viewer());
        writeStrings(out, b.ranking());
        out.writeUTF(b.modelVersion());
    }

    private static Events.BrokerEvent readBroker(DataInputStream in) throws IOException {
        String requestId = in.readUTF();
        long ts = in.readLong();
        Set<String> fanout = new LinkedHashSet<>(readStrings(in));
        String viewer = in.readUTF();
        List<String> ranking = readStrings(in);
        return new Events.BrokerEvent(requestId, ts, fanout, viewer, ranking, in.readUTF());
    }

    private static void writeStrings(DataOutputStream out, java.util.Collection<String> strings) throws IOException {
        out.writeInt(strings.size());
        for (String s : strings) {
            out.writeUTF(s);
        }
    }

    private static List<String> readStrings(DataInputStream in) throws IOException {
        List<String> out = new ArrayList<>();
        for (int i = in.readInt(); i > 0; i--) {
            out.add(in.readUTF());
        }
        return out;
    }
}
