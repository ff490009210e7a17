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

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * How far each input partition's changes are durable in the store: per partition, the newest source
 * commit time T such that every change the job has taken from that partition with a commit time up to
 * T is durable. Writes may complete in any order (parallel writes, cuts written in the background); the
 * watermark moves only over the longest run of the partition's changes, in the order they were taken,
 * that are all durable — never to the newest write alone, which may have overtaken an older one still
 * in flight.
 *
 * <p>A partition carries its changes in commit order; a change whose commit time is below one taken
 * before it on the partition counts as committed at the newest time seen, so the watermark never
 * moves back. A change whose commit time is not known (0) counts at the time seen before it.
 * Thread-safe.
 */
final class ConsistentThrough {

    /** A change taken from a partition, waiting for its write. */
    static final class Ticket {
        private final Partition partition;
        private final long commitTime;
        private boolean durable;

        private Ticket(Partition partition, long commitTime) {
            this.partition = partition;
            this.commitTime = commitTime;
        }
    }

    /** One partition's changes in the order taken, the durable ones at its head removed as they go. */
    private static final class Partition {
        private final ArrayDeque<Ticket> taken = new ArrayDeque<>();
        /** The newest commit time taken so far: what a change with an older or unknown one counts at. */
        private long newestTaken;
        /** The newest commit time of the changes removed from the head, all durable. */
        private long newestDone;
        /** The newest commit time removed from the head that is below {@link #newestDone}. */
        private long belowNewestDone;

        long through() {
            Ticket next = taken.peekFirst();
            // a change still in flight committed at newestDone: only what is below it is all durable
            return next == null || next.commitTime > newestDone ? newestDone : belowNewestDone;
        }
    }

    private final Map<Integer, Partition> partitions = new HashMap<>();

    /** A change taken from {@code partition}, committed at {@code commitTimeMillis} (0: not known). */
    synchronized Ticket taken(int partition, long commitTimeMillis) {
        Partition p = partitions.computeIfAbsent(partition, k -> new Partition());
        p.newestTaken = Math.max(p.newestTaken, commitTimeMillis);
        Ticket ticket = new Ticket(p, p.newestTaken);
        p.taken.addLast(ticket);
        return ticket;
    }

    /** The change's write is durable (or the change is settled for good: superseded, dead-lettered). */
    synchronized void durable(Ticket ticket) {
        ticket.durable = true;
        Partition p = ticket.partition;
        while (!p.taken.isEmpty() && p.taken.peekFirst().durable) {
            long done = p.taken.removeFirst().commitTime;
            if (done > p.newestDone) {
                p.belowNewestDone = p.newestDone;
                p.newestDone = done;
            }
        }
    }

    /** The partition's watermark: a commit time in epoch ms, 0 while nothing taken from it is durable. */
    synchronized long through(int partition) {
        Partition p = partitions.get(partition);
        return p == null ? 0 : p.through();
    }
}
