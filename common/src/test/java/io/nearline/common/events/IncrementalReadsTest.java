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
package io.nearline.common.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.cache.CacheRecord;
import io.nearline.common.version.Version;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The ranking of Debezium's incremental snapshot reads, held against a model of its window (DBLog's
 * watermarks) on a PostgreSQL log: transactions commit at growing positions while their changes' own
 * positions interleave; the low watermark opens a window, the chunk is selected inside it, every key
 * the stream changes inside the window leaves the chunk, and the rest is emitted when the high
 * watermark passes, carrying the stream's position there. The events go through the real decoder.
 */
class IncrementalReadsTest {

    private static final DebeziumDecoder DECODER = new DebeziumDecoder(List.of("id"), "", DebeziumDecoder.AUTO);
    private static final int KEYS = 8;

    /**
     * One change of the model's log: key, value (null: a delete), the commit delivered before its
     * transaction (pgoutput's lastCommitLsn) and its own position.
     */
    record Change(int key, String value, long lastCommit, long lsn) {}

    /** A transaction: its changes, or a watermark (no data change). */
    record Tx(List<Change> changes, boolean watermark, long commit) {}

    @Property(tries = 1000)
    void aReadNeverPassesALaterChangeAndAlwaysPassesAnEarlierOne(@ForAll long seed) {
        Model m = Model.random(new Random(seed));
        Version read = versionOf(m.readEnvelope(1, "x", true));
        assertTrue(m.log.stream().anyMatch(t -> !t.watermark), "a log with changes");
        for (Tx tx : m.log) {
            for (Change c : tx.changes) {
                Version change = versionOf(m.changeEnvelope(c));
                if (tx.commit < m.highWatermark().commit) {
                    assertTrue(read.isNewerThan(change), () -> read + " must pass " + change + " committed before");
                } else {
                    assertTrue(change.isNewerThan(read), () -> change + " committed after must pass " + read);
                }
            }
        }
    }

    /**
     * A stretch of the stream before the window lost: delivered in order with the window's reads,
     * applied newest-version-wins, every row the table has ends right, and what the cache keeps beyond
     * the table is only a key whose delete was lost (a delete no read can bring back).
     */
    @Property(tries = 500)
    void readsOfAWindowRepairWhatALostStretchLeftWrong(@ForAll long seed) {
        Model m = Model.random(new Random(seed));
        Map<Integer, CacheRecord> cache = m.applyWithLoss(true);
        Map<Integer, String> table = m.tableAfter(m.log.size());
        table.forEach((key, value) -> assertEquals(value, valueOf(cache.get(key)), "key " + key));
        Set<Integer> deletesLost = m.deletesOnlyInTheLostStretch();
        cache.forEach((key, record) -> {
            if (!record.tombstone() && !table.containsKey(key)) {
                assertTrue(deletesLost.contains(key), "key " + key + " is cached, the table has no such row");
            }
        });
    }

    /** The negative control: the same reads ranked as an initial snapshot's (below every change) repair nothing. */
    @Test
    void rankedAsInitialSnapshotReadsTheyLeaveTheLostUpdate() {
        Model m = Model.of(
                List.of(
                        List.of(new int[] {1, 1}),
                        List.of(new int[] {1, 2}), // lost
                        List.of(new int[] {2, 1})),
                2,
                2,
                3);
        assertEquals("v1-1", valueOf(m.applyWithLoss(false).get(1)), "the lost update stays lost");
        assertEquals("v1-2", valueOf(m.applyWithLoss(true).get(1)), "ranked at the window, the read repairs it");
    }

    /** The initial snapshot's reads keep their rule: below every streamed change, whatever their lsn. */
    @Test
    void anInitialReadStaysBelowEveryChange() {
        Model m = Model.random(new Random(7));
        Version initial = versionOf(m.readEnvelope(1, "x", false));
        Change first =
                m.log.stream().flatMap(t -> t.changes.stream()).findFirst().orElseThrow();
        assertTrue(versionOf(m.changeEnvelope(first)).isNewerThan(initial));
        assertFalse(initial.isNewerThan(Version.of(1, 0)));
    }

    private static Version versionOf(String envelope) {
        Decoded d = DECODER.decode(null, envelope.getBytes(StandardCharsets.UTF_8));
        assertTrue(d.ok(), () -> "rejected: " + d.rejection() + " for " + envelope);
        return ChangeEvents.cacheRecord(d.event()).version();
    }

    private static String valueOf(CacheRecord r) {
        if (r == null || r.tombstone()) {
            return null;
        }
        String row = new String(r.payload(), StandardCharsets.UTF_8);
        return row.replaceAll(".*\"v\":\"([^\"]*)\".*", "$1");
    }

    /**
     * A log of transactions with a window: the low watermark after transaction {@code low}, the chunk
     * selected after {@code select}, the high watermark after {@code high} (low <= select <= high,
     * counted in data transactions); the stream loses the changes of data transactions in
     * [lostFrom, lostTo), all before the low watermark.
     */
    static final class Model {
        final List<Tx> log = new ArrayList<>();
        final List<List<int[]>> writes;
        final int low;
        final int select;
        final int high;
        int lostFrom;
        int lostTo;
        /** Whether the reads go out at the high watermark's commit (as seen from Debezium 3.6), or at its insert. */
        final boolean atCommit;

        long insertOfTheWatermark;
        long commitBeforeTheWatermark;

        private Model(List<List<int[]>> writes, int low, int select, int high, Random positions) {
            this.writes = writes;
            this.low = low;
            this.select = select;
            this.high = high;
            this.atCommit = positions.nextBoolean();
            long commit = 1_000_000;
            for (int t = 0; t <= writes.size(); t++) {
                if (t == low || t == high) {
                    long before = commit;
                    commit += 50 + positions.nextInt(500);
                    log.add(new Tx(List.of(), true, commit));
                    insertOfTheWatermark = commit - 1 - positions.nextInt(40);
                    commitBeforeTheWatermark = before;
                }
                if (t == writes.size()) {
                    break;
                }
                long before = commit;
                commit += 50 + positions.nextInt(500);
                List<Change> changes = new ArrayList<>();
                for (int[] w : writes.get(t)) {
                    // written before its commit, often before commits delivered ahead of it
                    long lsn = commit - 1 - positions.nextInt(2_000);
                    changes.add(new Change(w[0], w[1] < 0 ? null : "v" + w[0] + "-" + w[1], before, lsn));
                }
                log.add(new Tx(changes, false, commit));
            }
        }

        /** Transactions of 1 to 3 writes on distinct keys, one in four a delete; a window and a lost stretch before it. */
        static Model random(Random r) {
            int n = 4 + r.nextInt(30);
            List<List<int[]>> writes = new ArrayList<>();
            for (int t = 0; t < n; t++) {
                List<int[]> tx = new ArrayList<>();
                r.ints(1 + r.nextInt(3), 1, KEYS + 1)
                        .distinct()
                        .forEach(k -> tx.add(new int[] {k, r.nextInt(4) == 0 ? -1 : r.nextInt(1000)}));
                writes.add(tx);
            }
            int low = 1 + r.nextInt(n - 1);
            int select = low + r.nextInt(n - low + 1);
            int high = select + r.nextInt(n - select + 1);
            Model m = new Model(writes, low, select, high, r);
            m.lostFrom = r.nextInt(low);
            m.lostTo = m.lostFrom + r.nextInt(low - m.lostFrom + 1);
            return m;
        }

        /** A fixed log: writes as {key, value or -1} per transaction; transaction 1 (only) lost. */
        static Model of(List<List<int[]>> writes, int low, int select, int high) {
            Model m = new Model(writes, low, select, high, new Random(1));
            m.lostFrom = 1;
            m.lostTo = 2;
            return m;
        }

        Tx highWatermark() {
            return log.stream().filter(Tx::watermark).reduce((a, b) -> b).orElseThrow();
        }

        /** The table after the first {@code dataTxs} data transactions. */
        Map<Integer, String> tableAfter(int dataTxs) {
            Map<Integer, String> table = new TreeMap<>();
            int seen = 0;
            for (Tx tx : log) {
                if (tx.watermark) {
                    continue;
                }
                if (seen++ == dataTxs) {
                    break;
                }
                for (Change c : tx.changes) {
                    if (c.value == null) {
                        table.remove(c.key);
                    } else {
                        table.put(c.key, c.value);
                    }
                }
            }
            return table;
        }

        /** The chunk the window emits: the table at the select, less every key changed inside the window. */
        Map<Integer, String> chunk() {
            Map<Integer, String> chunk = new TreeMap<>(tableAfter(select));
            for (int t = low; t < high; t++) {
                writes.get(t).forEach(w -> chunk.remove(w[0]));
            }
            return chunk;
        }

        /** The stream in delivery order, the lost stretch left out, the window's reads after the high watermark. */
        Map<Integer, CacheRecord> applyWithLoss(boolean incremental) {
            Map<Integer, CacheRecord> cache = new HashMap<>();
            int dataTx = 0;
            for (Tx tx : log) {
                if (tx == highWatermark()) {
                    chunk().forEach((key, value) -> apply(cache, key, readEnvelope(key, value, incremental)));
                }
                if (tx.watermark) {
                    continue;
                }
                boolean lost = dataTx >= lostFrom && dataTx < lostTo;
                dataTx++;
                if (!lost) {
                    tx.changes.forEach(c -> apply(cache, c.key, changeEnvelope(c)));
                }
            }
            return cache;
        }

        /** Keys whose last change in the whole log is a delete inside the lost stretch. */
        Set<Integer> deletesOnlyInTheLostStretch() {
            Set<Integer> keys = new HashSet<>();
            for (int t = lostFrom; t < lostTo; t++) {
                writes.get(t).stream().filter(w -> w[1] < 0).forEach(w -> keys.add(w[0]));
            }
            for (int t = lostTo; t < writes.size(); t++) {
                writes.get(t).forEach(w -> keys.remove(w[0]));
            }
            return keys;
        }

        private static void apply(Map<Integer, CacheRecord> cache, int key, String envelope) {
            Decoded d = DECODER.decode(null, envelope.getBytes(StandardCharsets.UTF_8));
            assertTrue(d.ok(), () -> "rejected: " + d.rejection() + " for " + envelope);
            cache.merge(
                    key,
                    ChangeEvents.cacheRecord(d.event()),
                    (held, next) -> next.version().isNewerThan(held.version()) ? next : held);
        }

        /** A streamed change as pgoutput gives it: its own lsn, and [the transaction's commit, lsn]. */
        String changeEnvelope(Change c) {
            String image = c.value == null
                    ? "\"before\":{\"id\":" + c.key + "},\"after\":null,\"op\":\"d\""
                    : "\"after\":{\"id\":" + c.key + ",\"v\":\"" + c.value + "\"},\"op\":\"u\"";
            return "{" + image + ",\"source\":{\"connector\":\"postgresql\",\"snapshot\":\"false\",\"lsn\":" + c.lsn
                    + ",\"sequence\":\"[\\\"" + c.lastCommit + "\\\",\\\"" + c.lsn + "\\\"]\"}}";
        }

        /**
         * A read of the window as Debezium 3.6 emits it: no lsn, the sequence where the stream stood
         * when the high watermark passed: at its commit [commit, commit] (as a real capture shows), or
         * at its insert [the commit before it, the insert's lsn]. As an initial snapshot's read
         * ({@code incremental} false): the slot's start as lsn.
         */
        String readEnvelope(int key, String value, boolean incremental) {
            long lastCommit = atCommit ? highWatermark().commit : commitBeforeTheWatermark;
            long lsn = atCommit ? highWatermark().commit : insertOfTheWatermark;
            String source = incremental
                    ? "\"snapshot\":\"incremental\",\"lsn\":null,\"sequence\":\"[\\\"" + lastCommit + "\\\",\\\"" + lsn
                            + "\\\"]\""
                    : "\"snapshot\":\"true\",\"lsn\":1000000,\"sequence\":\"[null,\\\"1000000\\\"]\"";
            return "{\"after\":{\"id\":" + key + ",\"v\":\"" + value + "\"},\"op\":\"r\",\"source\":{"
                    + "\"connector\":\"postgresql\"," + source + "}}";
        }
    }
}
