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
        private int reportedTenths;
        private long startedAtMillis = -1;
        private long lastAtMillis;

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
            return ended
                    && expected >= 0
                    && seen.cardinality() == expected
                    && (expected == 0 || seen.nextClearBit(0) >= expected);
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
        return shares.get(snapshotId + "/" + topicPartition);
    }
}
