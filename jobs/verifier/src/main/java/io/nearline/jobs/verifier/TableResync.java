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
package io.nearline.jobs.verifier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.events.DebeziumDecoder;
import io.nearline.common.store.CacheStore;
import io.nearline.jobs.cluster.database.CachedKeysSweep;
import io.nearline.jobs.cluster.database.DebeziumSignals;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import java.io.IOException;
import java.io.PrintStream;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One table read into the cache again while the connector and the job run (what {@code resync} and
 * {@code demo --lose} do). Debezium's connector is asked, through its signalling table, for an
 * incremental snapshot of the table; its reads flow through the live stream to the job, ranked where
 * their window closed, so each repairs an older cached row and never passes a newer change
 * (docs/debezium.md). The snapshot sends the rows the table has, never the keys it lacks, so the
 * cache's keys of the table are then swept for rows deleted at the source, and those are deleted at
 * the version of one consistent read ({@link SourceRepair}, as {@code verify --repair} does).
 *
 * @param database the whole database, so that keys are those the job makes
 * @param signalTable the connector's signalling table ({@code signal.data.collection})
 * @param notifications the topic of the connector's notifications ({@code notification.sink.topic.name})
 */
public record TableResync(
        SourceDatabase database,
        String signalTable,
        KafkaClient kafka,
        String notifications,
        SourceRepair repair,
        Duration timeout,
        PrintStream out) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a run did; {@code notSwept}: why deleted rows were not swept, empty where they were. */
    public record Outcome(
            String table,
            String signal,
            boolean completed,
            long rowsReread,
            double snapshotSeconds,
            long keysGone,
            long keysDeleted,
            String notSwept) {

        /** The snapshot completed and every key whose row is gone was deleted. */
        public boolean done() {
            return completed && keysGone == keysDeleted;
        }
    }

    /** {@code table} (as the connector names it), the rows {@code where} selects (null: all), into {@code cache}. */
    public Outcome run(String table, String where, CacheStore cache) throws Exception {
        String id = "nearline-resync-" + System.currentTimeMillis();
        long started = System.nanoTime();
        try (Connection conn = database.only(table).connect()) {
            DebeziumSignals.requestSnapshot(conn, signalTable, id, table, where);
        }
        out.printf(
                "resync %s: asked the connector for an incremental snapshot (signal %s in %s)%n",
                table, id, signalTable);
        long[] rows = {0};
        String end = follow(table, id, started, rows);
        double seconds = (System.nanoTime() - started) / 1e9;
        if (!"COMPLETED".equals(end)) {
            out.println("resync " + table + ": the snapshot did not complete: "
                    + (end == null
                            ? "no end within " + timeout.toSeconds() + " s (is the connector running?)"
                            : "the connector aborted it"));
            return new Outcome(table, id, false, rows[0], seconds, 0, 0, "");
        }
        out.printf(
                "resync %s: the snapshot re-read %,d rows in %.1f s (%,.0f rows/s)%n",
                table, rows[0], seconds, rows[0] / Math.max(seconds, 0.001));
        return sweep(table, cache, new Outcome(table, id, true, rows[0], seconds, 0, 0, ""));
    }

    /** The deleted rows' keys: listed, checked against the database, deleted at a consistent read's version. */
    private Outcome sweep(String table, CacheStore cache, Outcome read) throws Exception {
        CachedKeysSweep.Found found = new CachedKeysSweep(database, 0, Set.of(table)).next(cache, Map.of(), Map.of());
        String notSwept = found.notSwept().getOrDefault(table, "");
        if (!notSwept.isEmpty()) {
            out.println("resync " + table + ": rows deleted at the source are not swept: " + notSwept);
            return new Outcome(table, read.signal(), true, read.rowsReread(), read.snapshotSeconds(), 0, 0, notSwept);
        }
        List<String> gone = found.gone().getOrDefault(table, List.of());
        out.printf("resync %s: %,d cached keys whose rows the database no longer has%n", table, gone.size());
        long deleted = 0;
        if (!gone.isEmpty()) {
            List<SourceRepair.Wrong> wrong = new ArrayList<>();
            gone.forEach(key -> wrong.add(new SourceRepair.Wrong(table, key, false)));
            for (SourceRepair.Repaired r : repair.repair(wrong, cache)) {
                if (!r.outcome().equals("skipped")) {
                    deleted++; // applied, or stale: a newer change of the key stands
                }
                out.println("  SWEEP " + table + " " + r.wrong().key() + ": " + r.outcome() + " (" + r.why() + ")");
            }
        }
        out.printf(
                "resync %s: done; %,d rows re-read, %,d deleted rows' keys swept%n", table, read.rowsReread(), deleted);
        return new Outcome(
                table, read.signal(), true, read.rowsReread(), read.snapshotSeconds(), gone.size(), deleted, "");
    }

    /**
     * The connector's notifications about snapshot {@code id}, printed as they come, until it completes
     * or aborts (that type, the rows scanned added into {@code rows}) or the timeout (null).
     */
    private String follow(String table, String id, long started, long[] rows) throws InterruptedException {
        int seen = 0;
        long deadline = started + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            List<JsonNode> ours = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : KafkaTopics.readAll(kafka, notifications)) {
                JsonNode n = notification(r.value());
                if (n != null && n.path("id").asText().equals(id)) {
                    ours.add(n);
                }
            }
            for (JsonNode n : ours.subList(Math.min(seen, ours.size()), ours.size())) {
                JsonNode data = n.path("additional_data");
                switch (n.path("type").asText()) {
                    case "IN_PROGRESS" ->
                        out.printf(
                                "  %s: up to key %s of %s (%.0f s)%n",
                                data.path("current_collection_in_progress").asText(table),
                                data.path("last_processed_key").asText("?"),
                                data.path("maximum_key").asText("?"),
                                (System.nanoTime() - started) / 1e9);
                    case "TABLE_SCAN_COMPLETED" -> {
                        rows[0] += data.path("total_rows_scanned").asLong();
                        out.printf(
                                "  %s: scanned, %s rows (%s)%n",
                                data.path("scanned_collection").asText(table),
                                data.path("total_rows_scanned").asText("?"),
                                data.path("status").asText(""));
                    }
                    case "COMPLETED", "ABORTED" -> {
                        return n.path("type").asText();
                    }
                    default -> out.println("  " + n.path("type").asText().toLowerCase(java.util.Locale.ROOT));
                }
            }
            seen = ours.size();
            Thread.sleep(500);
        }
        return null;
    }

    /** A notification record's payload (JSON with or without the converter's schema), or null. */
    private static JsonNode notification(byte[] value) {
        if (value == null) {
            return null;
        }
        try {
            return DebeziumDecoder.unwrap(JSON.readTree(value));
        } catch (IOException e) {
            return null;
        }
    }
}
