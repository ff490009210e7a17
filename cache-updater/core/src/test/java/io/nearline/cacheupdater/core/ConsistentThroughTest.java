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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.version.Version;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@code consistent-through} never passes a change that is not yet durable, whatever order the writes
 * complete in, and reaches the newest commit once everything is durable. The oracle below works from
 * the whole history of each run (which changes are durable now), apart from the tracker's own queues;
 * a last-write watermark, the tempting shortcut, fails the same check.
 */
class ConsistentThroughTest {

    /** A watermark under test: what the checker drives. */
    private interface Watermark {
        Object taken(int partition, long commitTime);

        void durable(Object change);

        long through(int partition);
    }

    private static Watermark tracker() {
        ConsistentThrough t = new ConsistentThrough();
        return new Watermark() {
            public Object taken(int partition, long commitTime) {
                return t.taken(partition, commitTime);
            }

            public void durable(Object change) {
                t.durable((ConsistentThrough.Ticket) change);
            }

            public long through(int partition) {
                return t.through(partition);
            }
        };
    }

    /** The tracker's watermark as a version (the position readers compare with), the commit time as its SCN. */
    private static Watermark trackerByVersion() {
        ConsistentThrough t = new ConsistentThrough();
        return new Watermark() {
            public Object taken(int partition, long commitTime) {
                return t.taken(partition, 0, Version.of(commitTime, 0));
            }

            public void durable(Object change) {
                t.durable((ConsistentThrough.Ticket) change);
            }

            public long through(int partition) {
                ConsistentThrough.Through where = t.where(partition);
                return where == null || where.version().isNone()
                        ? 0
                        : where.version().scn().value();
            }
        };
    }

    /** The negative control: the newest commit time written so far, per partition. */
    private static Watermark lastWrite() {
        Map<Object, long[]> changes = new HashMap<>();
        Map<Integer, Long> newest = new HashMap<>();
        return new Watermark() {
            public Object taken(int partition, long commitTime) {
                Object id = new Object();
                changes.put(id, new long[] {partition, commitTime});
                return id;
            }

            public void durable(Object change) {
                long[] c = changes.get(change);
                newest.merge((int) c[0], c[1], Math::max);
            }

            public long through(int partition) {
                return newest.getOrDefault(partition, 0L);
            }
        };
    }

    private record Change(int partition, long commitTime, Object id) {}

    /** Null when every check holds, else what failed. */
    private static String violation(Watermark w, long seed, int length) {
        Random random = new Random(seed);
        List<Change> changes = new ArrayList<>();
        long[] clock = {1_000, 1_000};
        for (int i = 0; i < length; i++) {
            int p = random.nextInt(2);
            clock[p] += random.nextInt(3) * 10; // ties: a transaction's changes share its commit time
            changes.add(new Change(p, clock[p], w.taken(p, clock[p])));
        }
        List<Change> completions = new ArrayList<>(changes);
        Collections.shuffle(completions, random);
        List<Change> durable = new ArrayList<>();
        long[] before = {0, 0};
        for (Change done : completions) {
            w.durable(done.id());
            durable.add(done);
            for (int p = 0; p < 2; p++) {
                long through = w.through(p);
                for (Change c : changes) {
                    if (c.partition() == p && c.commitTime() <= through && !durable.contains(c)) {
                        return "partition " + p + " through " + through + " passes " + c.commitTime() + ", in flight";
                    }
                }
                if (through < before[p]) {
                    return "partition " + p + " went back from " + before[p] + " to " + through;
                }
                before[p] = through;
            }
        }
        for (int p = 0; p < 2; p++) {
            int partition = p;
            long newest = changes.stream()
                    .filter(c -> c.partition() == partition)
                    .mapToLong(Change::commitTime)
                    .max()
                    .orElse(0);
            if (w.through(p) != newest) {
                return "partition " + p + " ends through " + w.through(p) + ", not at its newest commit " + newest;
            }
        }
        return null;
    }

    @Property(tries = 500)
    void neverPassesAChangeInFlightAndEndsAtTheNewestCommit(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 40) int length) {
        String violation = violation(tracker(), seed, length);
        assertEquals(null, violation);
    }

    @Property(tries = 300)
    void byVersionTooNeverPassesAChangeInFlight(@ForAll long seed, @ForAll @IntRange(min = 1, max = 40) int length) {
        assertEquals(null, violation(trackerByVersion(), seed, length));
    }

    @Test
    void theLastWriteWatermarkFailsTheSameCheck() {
        String found = null;
        for (long seed = 0; seed < 200 && found == null; seed++) {
            found = violation(lastWrite(), seed, 20);
        }
        assertNotNull(found, "the checker cannot tell a last-write watermark from a correct one");
        assertTrue(found.contains("in flight"), found);
    }

    @Test
    void aChangeCommittedAtTheSameTimeAsOneInFlightHoldsTheWatermarkBelowBoth() {
        ConsistentThrough t = new ConsistentThrough();
        ConsistentThrough.Ticket a = t.taken(0, 100);
        ConsistentThrough.Ticket b = t.taken(0, 200);
        ConsistentThrough.Ticket c = t.taken(0, 200); // same transaction as b
        t.durable(a);
        t.durable(b);
        assertEquals(100, t.through(0), "c, committed at 200, is still in flight");
        t.durable(c);
        assertEquals(200, t.through(0));
    }

    @Test
    void aChangeWhoseCommitTimeGoesBackCountsAtTheNewestSeen() {
        ConsistentThrough t = new ConsistentThrough();
        ConsistentThrough.Ticket a = t.taken(0, 300);
        ConsistentThrough.Ticket late = t.taken(0, 250);
        ConsistentThrough.Ticket unknown = t.taken(0, 0);
        t.durable(a);
        t.durable(unknown);
        assertEquals(0, t.through(0), "the change counted at 300 is in flight");
        t.durable(late);
        assertEquals(300, t.through(0));
        assertEquals(0, t.through(7), "a partition nothing was taken from");
    }
}
