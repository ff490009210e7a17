package io.nearline.bootstrap;

import io.nearline.bootstrap.avro.BootstrapKind;
import io.nearline.bootstrap.avro.BootstrapRecord;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * What a bootstrapper task has seen of each snapshot on each bootstrap-topic partition it reads:
 * the rows by sequence number (so a resumed producer's repeats count once), against the count the
 * markers announce. A partition's share is complete when its END marker was seen and every sequence
 * number below the announced count too. Engine-neutral; one per task, not thread-safe.
 */
public final class BootstrapTracker {

    /** One snapshot on one partition. */
    public static final class Share {
        private final BitSet seen = new BitSet();
        private long expected = -1;
        private boolean ended;
        private boolean reported;

        public long rowsSeen() {
            return seen.cardinality();
        }

        public long expected() {
            return expected;
        }

        public boolean ended() {
            return ended;
        }

        public boolean complete() {
            return ended && expected >= 0 && seen.cardinality() == expected && (expected == 0 || seen.nextClearBit(0) >= expected);
        }

        /** Percent of the announced rows seen; -1 before any marker announced the count. */
        public double percent() {
            return expected < 0 ? -1 : expected == 0 ? 100 : 100.0 * rowsSeen() / expected;
        }
    }

    /** What changed with a record: a share became complete, or an END came while rows are missing. */
    public enum Change { NONE, COMPLETE, INCOMPLETE_AT_END }

    private final Map<String, Share> shares = new HashMap<>();

    public Change onRecord(BootstrapRecord r) {
        Share share = shares.computeIfAbsent(r.getSnapshotId() + "/" + r.getTopicPartition(), k -> new Share());
        if (r.getKind() == BootstrapKind.ROW) {
            if (r.getSequence() >= 0 && r.getSequence() < Integer.MAX_VALUE) {
                share.seen.set((int) r.getSequence());
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
        return r.getKind() == BootstrapKind.END && !share.complete() ? Change.INCOMPLETE_AT_END : Change.NONE;
    }

    public Share share(String snapshotId, int topicPartition) {
        return shares.get(snapshotId + "/" + topicPartition);
    }
}
