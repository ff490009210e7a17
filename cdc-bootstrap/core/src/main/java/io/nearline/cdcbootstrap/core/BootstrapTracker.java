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
package io.nearline.cdcbootstrap.core;

import io.nearline.bootstrap.avro.BootstrapKind;
import io.nearline.bootstrap.avro.BootstrapRecord;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What a bootstrapper task has seen of each snapshot on each bootstrap-topic partition it reads:
 * the rows by sequence number (so a resumed producer's repeats count once), against the count the
 * markers announce. A partition's share is complete when its END marker was seen and every sequence
 * number below the announced count too. Engine-neutral; one per task, not thread-safe.
 *
 * <p>A task that must go on counting after a crash keeps each share's {@link #state} with its input
 * positions (Flink: operator state; Samza: a changelogged store, written per record) and gives it
 * back with {@link #restore}. The state is small while rows come in order: the count of sequence
 * numbers seen without a gap from 0, then each one seen past the first gap.
 */
public final class BootstrapTracker {

    /** One snapshot on one partition. */
    public static final class Share {
        private final BitSet seen = new BitSet();
        private int count; // bits set in seen, kept so that no record scans the whole set
        private int prefix; // every sequence number below it was seen
        private long expected = -1;
        private boolean ended;
        private boolean reported;
        private int reportedTenths;
        private long startedAtMillis = -1;
        private long lastAtMillis;

        public long rowsSeen() {
            return count;
        }

        public long expected() {
            return expected;
        }

        public boolean ended() {
            return ended;
        }

        public boolean complete() {
            return ended && expected >= 0 && count == expected && prefix >= expected;
        }

        private void see(int sequence) {
            if (!seen.get(sequence)) {
                seen.set(sequence);
                count++;
                advancePrefix();
            }
        }

        private void advancePrefix() {
            while (seen.get(prefix)) {
                prefix++;
            }
        }

        /** Rows per second since this share's first record. */
        public double rowsPerSecond() {
            long millis = lastAtMillis - startedAtMillis;
            return millis <= 0 ? Double.NaN : rowsSeen() * 1000.0 / millis;
        }

        /** Percent of the announced rows seen; -1 before any marker announced the count. */
        public double percent() {
            return expected < 0 ? -1 : expected == 0 ? 100 : 100.0 * rowsSeen() / expected;
        }
    }

    /**
     * What changed with a record: another tenth of a share's rows seen (for progress reports), a share
     * became complete, or an END came while rows are missing.
     */
    public enum Change {
        NONE,
        PROGRESS,
        COMPLETE,
        INCOMPLETE_AT_END
    }

    private final Map<String, Share> shares = new HashMap<>();

    public Change onRecord(BootstrapRecord r) {
        return onRecord(r, System.currentTimeMillis());
    }

    public Change onRecord(BootstrapRecord r, long nowMillis) {
        Share share = shares.computeIfAbsent(r.getSnapshotId() + "/" + r.getTopicPartition(), k -> new Share());
        if (share.startedAtMillis < 0) {
            share.startedAtMillis = nowMillis;
        }
        share.lastAtMillis = nowMillis;
        if (r.getKind() == BootstrapKind.ROW) {
            if (r.getSequence() >= 0 && r.getSequence() < Integer.MAX_VALUE) {
                share.see((int) r.getSequence());
            }
        } else {
            share.expected = r.getPartitionRows();
            if (r.getKind() == BootstrapKind.END) {
                share.ended = true;
            }
        }
        if (share.complete() && !share.reported) {
            share.reported = true;
            return Change.COMPLETE;
        }
        if (r.getKind() == BootstrapKind.END && !share.complete()) {
            return Change.INCOMPLETE_AT_END;
        }
        int tenths = share.expected > 0 ? (int) Math.min(10, share.rowsSeen() * 10 / share.expected) : 0;
        if (tenths > share.reportedTenths) {
            share.reportedTenths = tenths;
            return Change.PROGRESS;
        }
        return Change.NONE;
    }

    public Share share(String snapshotId, int topicPartition) {
        return shares.get(key(snapshotId, topicPartition));
    }

    /** The name of the share a record belongs to: its snapshot and partition. */
    public static String key(BootstrapRecord r) {
        return key(r.getSnapshotId(), r.getTopicPartition());
    }

    private static String key(String snapshotId, int topicPartition) {
        return snapshotId + "/" + topicPartition;
    }

    /** The names of every share seen or restored. */
    public Set<String> keys() {
        return Set.copyOf(shares.keySet());
    }

    /** A share's state as bytes (see the class comment), or null for a share never seen. */
    public byte[] state(String key) {
        Share share = shares.get(key);
        if (share == null) {
            return null;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(STATE_VERSION);
            out.writeLong(share.expected);
            out.writeBoolean(share.ended);
            out.writeInt(share.prefix);
            out.writeInt(share.count - share.prefix);
            for (int s = share.seen.nextSetBit(share.prefix); s >= 0; s = share.seen.nextSetBit(s + 1)) {
                out.writeInt(s);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory: cannot happen
        }
        return bytes.toByteArray();
    }

    /**
     * Takes back a share's {@link #state} after a restart, merged into what is known of it (states
     * from several tasks may name the same share: the rows seen are their union). Returns true when
     * this state makes the share complete, and then marks it reported: neither a second state of the
     * same share nor the restarted task reports it again.
     */
    public boolean restore(String key, byte[] state) {
        Share share = shares.computeIfAbsent(key, k -> new Share());
        boolean wasReported = share.reported;
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(state))) {
            if (in.readByte() != STATE_VERSION) {
                throw new IllegalArgumentException("bootstrap progress " + key + ": unknown state version");
            }
            share.expected = Math.max(share.expected, in.readLong());
            share.ended |= in.readBoolean();
            int prefix = in.readInt();
            share.seen.set(0, prefix);
            for (int past = in.readInt(); past > 0; past--) {
                share.seen.set(in.readInt());
            }
            share.count = share.seen.cardinality(); // once per restore
            share.advancePrefix();
        } catch (IOException e) {
            throw new IllegalArgumentException("bootstrap progress " + key + ": unreadable state", e);
        }
        share.reported = share.complete();
        return share.complete() && !wasReported;
    }

    private static final byte STATE_VERSION = 1;
}
