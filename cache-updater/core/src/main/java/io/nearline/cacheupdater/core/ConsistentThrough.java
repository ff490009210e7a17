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
package io.nearline.cacheupdater.core;

import io.nearline.common.version.Version;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * How far each input partition's changes are durable in the store: per partition, the newest source
 * commit time T such that every change the job has taken from that partition with a commit time up to
 * T is durable, and the same as a version (the position a reader compares its own commit with). Writes
 * may complete in any order (parallel writes, cuts written in the background); the watermark moves only
 * over the longest run of the partition's changes, in the order they were taken, that are all durable —
 * never to the newest write alone, which may have overtaken an older one still in flight.
 *
 * <p>A partition carries its changes in commit order; a change whose commit time (or version) is below
 * one taken before it on the partition counts at the newest seen, so the watermark never moves back. A
 * change whose commit time is not known (0) counts at the time seen before it. Thread-safe.
 */
final class ConsistentThrough {

    /** A change taken from a partition, waiting for its write. */
    static final class Ticket {
        private final Partition partition;
        private final long commitTime;
        private final Version version;
        private boolean durable;

        private Ticket(Partition partition, long commitTime, Version version) {
            this.partition = partition;
            this.commitTime = commitTime;
            this.version = version;
        }
    }

    /** Where a partition stands, by commit time and by version. */
    record Through(long commitTimeMillis, Version version) {}

    /**
     * One measure of a partition's watermark: the newest taken, the newest done at the head, and the newest
     * done below that — what is all durable while a change counted at the newest done is still in flight.
     */
    private static final class Mark<T extends Comparable<T>> {
        private T newestTaken;
        private T newestDone;
        private T belowNewestDone;

        Mark(T none) {
            newestTaken = none;
            newestDone = none;
            belowNewestDone = none;
        }

        T taken(T value) {
            if (value.compareTo(newestTaken) > 0) {
                newestTaken = value;
            }
            return newestTaken;
        }

        void done(T value) {
            if (value.compareTo(newestDone) > 0) {
                belowNewestDone = newestDone;
                newestDone = value;
            }
        }

        T through(T next) {
            return next == null || next.compareTo(newestDone) > 0 ? newestDone : belowNewestDone;
        }
    }

    /** One partition's changes in the order taken, the durable ones at its head removed as they go. */
    private static final class Partition {
        private final ArrayDeque<Ticket> taken = new ArrayDeque<>();
        private final Mark<Long> time = new Mark<>(0L);
        private final Mark<Version> version = new Mark<>(Version.NONE);

        Through through() {
            Ticket next = taken.peekFirst();
            return new Through(
                    time.through(next == null ? null : next.commitTime),
                    version.through(next == null ? null : next.version));
        }
    }

    private final Map<Integer, Partition> partitions = new HashMap<>();

    /** A change taken from {@code partition}, committed at {@code commitTimeMillis} (0: not known). */
    synchronized Ticket taken(int partition, long commitTimeMillis) {
        return taken(partition, commitTimeMillis, Version.NONE);
    }

    /** A change taken from {@code partition}, committed at {@code commitTimeMillis} (0: not known) as {@code version}. */
    synchronized Ticket taken(int partition, long commitTimeMillis, Version version) {
        Partition p = partitions.computeIfAbsent(partition, k -> new Partition());
        Ticket ticket = new Ticket(p, p.time.taken(commitTimeMillis), p.version.taken(version));
        p.taken.addLast(ticket);
        return ticket;
    }

    /** The change's write is durable (or the change is settled for good: superseded, dead-lettered). */
    synchronized void durable(Ticket ticket) {
        ticket.durable = true;
        Partition p = ticket.partition;
        while (!p.taken.isEmpty() && p.taken.peekFirst().durable) {
            Ticket done = p.taken.removeFirst();
            p.time.done(done.commitTime);
            p.version.done(done.version);
        }
    }

    /** The partition's watermark: a commit time in epoch ms, 0 while nothing taken from it is durable. */
    synchronized long through(int partition) {
        Partition p = partitions.get(partition);
        return p == null ? 0 : p.through().commitTimeMillis();
    }

    /** The partition's watermark by time and by version; null while nothing was taken from it. */
    synchronized Through where(int partition) {
        Partition p = partitions.get(partition);
        return p == null ? null : p.through();
    }
}
