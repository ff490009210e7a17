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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@link RequestState} and pending events as bytes, for the engines' state stores (Flink keyed
 * RocksDB state, a Samza RocksDB store). A leading format version lets a later release read state
 * written by this one.
 */
public final class RequestStateCodec {

    private static final byte FORMAT = 1;
    private static final byte FRAGMENT = 0;
    private static final byte BROKER = 1;

    private RequestStateCodec() {}

    public static byte[] encode(RequestState s) {
        ByteCodec.Writer out = new ByteCodec.Writer()
                .writeByte(FORMAT)
                .writeLong(s.windowEnd)
                .writeLong(s.lastNeededTs)
                .writeLong(s.lastNeededArrival)
                .writeInt(s.duplicates)
                .writeBoolean(s.emitted)
                .writeBoolean(s.broker != null);
        if (s.broker != null) {
            writeBroker(out, s.broker);
        }
        out.writeInt(s.fragments.size());
        for (Events.Fragment f : s.fragments.values()) {
            writeFragment(out, f);
        }
        return out.toByteArray();
    }

    public static RequestState decode(byte[] bytes) {
        ByteCodec.Reader in = reader(bytes);
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
        return s;
    }

    public static byte[] encode(RequestState.Pending p) {
        ByteCodec.Writer out = new ByteCodec.Writer().writeByte(FORMAT).writeLong(p.arrivedAtMillis());
        if (p.event() instanceof Events.Fragment f) {
            writeFragment(out.writeByte(FRAGMENT), f);
        } else {
            writeBroker(out.writeByte(BROKER), (Events.BrokerEvent) p.event());
        }
        return out.toByteArray();
    }

    public static RequestState.Pending decodePending(byte[] bytes) {
        ByteCodec.Reader in = reader(bytes);
        long arrived = in.readLong();
        Events.Input e = in.readByte() == FRAGMENT ? readFragment(in) : readBroker(in);
        return new RequestState.Pending(e, arrived);
    }

    /** A list of pending events in one value (stores without list state, such as Samza's). */
    public static byte[] encodeList(List<RequestState.Pending> pending) {
        ByteCodec.Writer out = new ByteCodec.Writer().writeByte(FORMAT).writeInt(pending.size());
        for (RequestState.Pending p : pending) {
            out.writeBytes(encode(p));
        }
        return out.toByteArray();
    }

    /**
     * {@code list} (from {@link #encodeList}, or null for none) with {@code p} added at its end,
     * without decoding what is there: a request's events arrive one by one, and decoding the list
     * for each would cost the square of its length.
     */
    public static byte[] append(byte[] list, RequestState.Pending p) {
        if (list == null) {
            return encodeList(List.of(p));
        }
        ByteCodec.Reader in = reader(list);
        int count = in.readInt();
        byte[] tail = new ByteCodec.Writer().writeBytes(encode(p)).toByteArray();
        byte[] out = Arrays.copyOf(list, list.length + tail.length);
        System.arraycopy(tail, 0, out, list.length, tail.length);
        byte[] header =
                new ByteCodec.Writer().writeByte(FORMAT).writeInt(count + 1).toByteArray();
        System.arraycopy(header, 0, out, 0, header.length); // the count, one more
        return out;
    }

    public static List<RequestState.Pending> decodeList(byte[] bytes) {
        ByteCodec.Reader in = reader(bytes);
        List<RequestState.Pending> out = new ArrayList<>();
        for (int i = in.readInt(); i > 0; i--) {
            out.add(decodePending(in.readBytes()));
        }
        return out;
    }

    private static ByteCodec.Reader reader(byte[] bytes) {
        ByteCodec.Reader in = new ByteCodec.Reader(bytes);
        byte format = in.readByte();
        if (format != FORMAT) {
            throw new IllegalStateException("join state in format " + format + ", this version reads " + FORMAT);
        }
        return in;
    }

    private static void writeFragment(ByteCodec.Writer out, Events.Fragment f) {
        out.writeString(f.requestId())
                .writeString(f.node())
                .writeLong(f.ts())
                .writeInt(f.docs().size());
        for (Events.ScoredDoc d : f.docs()) {
            out.writeString(d.id()).writeDouble(d.score()).writeInt(d.features().size());
            for (Map.Entry<String, Double> e : d.features().entrySet()) {
                out.writeString(e.getKey()).writeDouble(e.getValue());
            }
        }
    }

    private static Events.Fragment readFragment(ByteCodec.Reader in) {
        String requestId = in.readString();
        String node = in.readString();
        long ts = in.readLong();
        List<Events.ScoredDoc> docs = new ArrayList<>();
        for (int i = in.readInt(); i > 0; i--) {
            String id = in.readString();
            double score = in.readDouble();
            Map<String, Double> features = new TreeMap<>();
            for (int j = in.readInt(); j > 0; j--) {
                features.put(in.readString(), in.readDouble());
            }
            docs.add(new Events.ScoredDoc(id, score, features));
        }
        return new Events.Fragment(requestId, node, ts, docs);
    }

    private static void writeBroker(ByteCodec.Writer out, Events.BrokerEvent b) {
        out.writeString(b.requestId()).writeLong(b.ts());
        writeStrings(out, b.fanout());
        out.writeString(b.viewer());
        writeStrings(out, b.ranking());
        out.writeString(b.modelVersion());
    }

    private static Events.BrokerEvent readBroker(ByteCodec.Reader in) {
        String requestId = in.readString();
        long ts = in.readLong();
        Set<String> fanout = new LinkedHashSet<>(readStrings(in));
        String viewer = in.readString();
        List<String> ranking = readStrings(in);
        return new Events.BrokerEvent(requestId, ts, fanout, viewer, ranking, in.readString());
    }

    private static void writeStrings(ByteCodec.Writer out, Collection<String> strings) {
        out.writeInt(strings.size());
        strings.forEach(out::writeString);
    }

    private static List<String> readStrings(ByteCodec.Reader in) {
        List<String> out = new ArrayList<>();
        for (int i = in.readInt(); i > 0; i--) {
            out.add(in.readString());
        }
        return out;
    }
}
