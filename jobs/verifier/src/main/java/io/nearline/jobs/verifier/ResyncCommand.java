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
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.common.config.Config;
import io.nearline.common.events.DebeziumDecoder;
import io.nearline.common.store.CacheStore;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterOption;
import io.nearline.jobs.cluster.ConnectRest;
import io.nearline.jobs.cluster.LiveStores;
import io.nearline.jobs.cluster.database.CachedKeysSweep;
import io.nearline.jobs.cluster.database.DebeziumSignals;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.jobs.kit.console.DurationConverter;
import io.nearline.jobs.kit.console.LinesFile;
import io.nearline.jobs.kit.console.SummaryJsonOption;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code nearline resync}: one table read again into the cache while everything runs. Debezium's
 * connector is asked, through its signalling table, for an incremental snapshot of the table; its
 * reads flow through the live stream to the job, ranked where their window closed, so each repairs an
 * older cached row and never passes a newer change (docs/debezium.md). The snapshot sends the rows the
 * table has, never the keys it lacks, so the cache's keys of the table are then swept for rows deleted
 * at the source, and those are deleted at the version of one consistent read (as {@code verify
 * --repair} does).
 */
@Command(
        name = "resync",
        mixinStandardHelpOptions = true,
        description = {
            "Read one table into the cache again while the connector and the job run: after a stretch of the "
                    + "stream was lost (a segment past retention, a connector restarted past its offsets). Asks "
                    + "Debezium's connector for an incremental snapshot through its signalling table, follows it "
                    + "to the end, then deletes the cached keys of the table whose rows the database no longer "
                    + "has.%n",
            "Exits 0 when the snapshot completed and every such key was deleted, 1 when the snapshot was "
                    + "aborted or did not end within --timeout or a key could not be deleted, 2 on bad "
                    + "options.%n"
        })
public final class ResyncCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(
            names = "--table",
            required = true,
            paramLabel = "TABLE",
            description = "The table, as the connector " + "names it (public.items; on MariaDB, DATABASE.items).")
    String table;

    @Option(
            names = "--where",
            paramLabel = "CONDITION",
            description = "Only the rows this SQL condition selects (Debezium's additional-conditions), e.g. "
                    + "\"id BETWEEN 1000 AND 2000\". The sweep for deleted rows covers the whole table either way.")
    String where;

    @Option(
            names = "--source",
            paramLabel = "DATABASE",
            description = "postgres or mysql: the cluster file's section (default: the one it has).")
    String source;

    @Option(
            names = "--connector",
            paramLabel = "NAME",
            description = "The Debezium connector on the cluster's Kafka Connect (default: "
                    + "nearline-debezium-<source>, the shipped descriptors' name).")
    String connector;

    @Option(
            names = "--timeout",
            converter = DurationConverter.class,
            paramLabel = "DURATION",
            defaultValue = "30m",
            description = "How long the snapshot may take before the run gives up. Default: ${DEFAULT-VALUE}.")
    Duration timeout;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "The cache updater's settings (.properties or .yaml), for its TTLs (the sweep's tombstones).")
    Path config;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Overrides one setting; repeatable.")
    Map<String, String> overrides = new LinkedHashMap<>();

    @Option(
            names = "--watermark-topic",
            defaultValue = "nearline-pg.message",
            description = "On PostgreSQL: where the connector streams logical-decoding messages, for the sweep's "
                    + "consistent read (default: ${DEFAULT-VALUE}).")
    String watermarkTopic;

    @Mixin
    ClusterOption cluster;

    @Mixin
    SummaryJsonOption summaryJson;

    /** What the connector said about the snapshot, in order. */
    private record Progress(String type, JsonNode data) {}

    /** What a run did, as --summary-json writes it. */
    private record Outcome(
            String signal,
            boolean completed,
            long rowsReread,
            double snapshotSeconds,
            long keysGone,
            long keysDeleted,
            String notSwept) {}

    @Override
    public Integer call() throws Exception {
        ClusterFile c = cluster.read();
        String kind = source != null ? source : c.databaseKind();
        if (!List.of("postgres", "mysql").contains(kind)) {
            throw new ClusterException("--source " + kind + ": give postgres or mysql");
        }
        Map<String, String> db = c.database(kind);
        if (!ClusterFile.tables(db).contains(table)) {
            throw new ClusterException("--table " + table + " is not among the tables the cluster file's " + kind
                    + " section captures (" + String.join(", ", ClusterFile.tables(db)) + ")");
        }
        String name = connector != null ? connector : "nearline-debezium-" + kind;
        JsonNode settings = connectorConfig(c, name);
        String signalTable = settings.path("signal.data.collection").asText("");
        String notifications = settings.path("notification.sink.topic.name").asText("");
        if (signalTable.isEmpty() || notifications.isEmpty()) {
            throw new ClusterException("the connector " + name + " takes no signals or sends no notifications: "
                    + "deploy it again from the shipped descriptor (jobs/deploy/debezium-" + kind + ".yaml sets "
                    + "signal.enabled.channels and notification.sink.topic.name)");
        }
        SourceDatabase database = SourceDatabase.fromClusterFile(c.dir(), kind);
        KafkaClient kafka = KafkaClient.from(Config.of(c.jobSettings()));
        String id = "nearline-resync-" + System.currentTimeMillis();
        long started = System.nanoTime();
        try (Connection conn = database.only(table).connect()) {
            DebeziumSignals.requestSnapshot(conn, signalTable, id, table, where);
        }
        System.out.printf(
                "resync %s: asked %s for an incremental snapshot (signal %s in %s)%n", table, name, id, signalTable);
        Progress end = follow(kafka, notifications, id, started);
        double snapshotSeconds = (System.nanoTime() - started) / 1e9;
        long rows = end == null ? 0 : end.data().path("rows").asLong();
        if (end == null || !end.type().equals("COMPLETED")) {
            String why = end == null
                    ? "no end within " + timeout.toSeconds() + " s (is the connector running? " + c.connectRest()
                            + "/connectors/" + name + "/status)"
                    : "the connector aborted it";
            System.out.println("resync " + table + ": the snapshot did not complete: " + why);
            writeSummary(new Outcome(id, false, rows, snapshotSeconds, 0, 0, ""));
            return 1;
        }
        System.out.printf(
                "resync %s: the snapshot re-read %,d rows in %.1f s (%,.0f rows/s)%n",
                table, rows, snapshotSeconds, rows / Math.max(snapshotSeconds, 0.001));
        return sweep(c, kind, database, id, rows, snapshotSeconds);
    }

    /** The deleted rows' keys: listed, checked against the database, deleted at a consistent read's version. */
    private int sweep(ClusterFile c, String kind, SourceDatabase database, String id, long rows, double seconds)
            throws Exception {
        try (CacheStore cache = LiveStores.open(c.store(), c)) {
            // the whole database's keys (a key names its table where the cluster has several), this table's swept
            CachedKeysSweep.Found found =
                    new CachedKeysSweep(database, 0, Set.of(table)).next(cache, Map.of(), Map.of());
            String notSwept = found.notSwept().getOrDefault(table, "");
            if (!notSwept.isEmpty()) {
                System.out.println("resync " + table + ": rows deleted at the source are not swept: " + notSwept);
                writeSummary(new Outcome(id, true, rows, seconds, 0, 0, notSwept));
                return 0;
            }
            List<String> gone = found.gone().getOrDefault(table, List.of());
            System.out.printf("resync %s: %,d cached keys whose rows the database no longer has%n", table, gone.size());
            long deleted = 0;
            if (!gone.isEmpty()) {
                SourceRepair repair = new SourceRepair(
                        c,
                        kind,
                        (config == null ? Config.empty() : Config.load(config)).withOverrides(overrides),
                        watermarkTopic,
                        Duration.ofSeconds(60));
                List<SourceRepair.Wrong> wrong = new ArrayList<>();
                gone.forEach(key -> wrong.add(new SourceRepair.Wrong(table, key, false)));
                for (SourceRepair.Repaired r : repair.repair(wrong, cache)) {
                    if (!r.outcome().equals("skipped")) {
                        deleted++; // applied, or stale: a newer change of the key stands
                    }
                    System.out.println(
                            "  SWEEP " + table + " " + r.wrong().key() + ": " + r.outcome() + " (" + r.why() + ")");
                }
            }
            System.out.printf(
                    "resync %s: done; %,d rows re-read, %,d deleted rows' keys swept%n", table, rows, deleted);
            writeSummary(new Outcome(id, true, rows, seconds, gone.size(), deleted, ""));
            return deleted == gone.size() ? 0 : 1;
        }
    }

    /** The connector's config from the cluster's Kafka Connect; exit 2 where it does not run there. */
    private static JsonNode connectorConfig(ClusterFile c, String name) {
        try {
            return ConnectRest.get(c.connectRest(), "/connectors/" + name + "/config");
        } catch (RuntimeException e) {
            throw new ClusterException("no connector " + name + " on the cluster's Kafka Connect ("
                    + c.connectRest() + "): deploy it (bin/nearline deploy jobs/deploy/debezium-"
                    + (name.endsWith("mysql") ? "mysql" : "postgres") + ".yaml) or name it with --connector");
        }
    }

    /**
     * The connector's notifications about snapshot {@code id}, printed as they come, until it completes
     * or aborts (that notification, rows scanned as {@code rows}) or the timeout (null).
     */
    private Progress follow(KafkaClient kafka, String topic, String id, long started) throws InterruptedException {
        int seen = 0;
        long rows = 0;
        long deadline = started + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            List<Progress> ours = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : KafkaTopics.readAll(kafka, topic)) {
                JsonNode n = notification(r.value());
                if (n != null && n.path("id").asText().equals(id)) {
                    ours.add(new Progress(n.path("type").asText(), n.path("additional_data")));
                }
            }
            for (Progress p : ours.subList(Math.min(seen, ours.size()), ours.size())) {
                switch (p.type()) {
                    case "IN_PROGRESS" ->
                        System.out.printf(
                                "  %s: up to key %s of %s (%.0f s)%n",
                                p.data().path("current_collection_in_progress").asText(table),
                                p.data().path("last_processed_key").asText("?"),
                                p.data().path("maximum_key").asText("?"),
                                (System.nanoTime() - started) / 1e9);
                    case "TABLE_SCAN_COMPLETED" -> {
                        rows += p.data().path("total_rows_scanned").asLong();
                        System.out.printf(
                                "  %s: scanned, %s rows (%s)%n",
                                p.data().path("scanned_collection").asText(table),
                                p.data().path("total_rows_scanned").asText("?"),
                                p.data().path("status").asText(""));
                    }
                    case "COMPLETED", "ABORTED" -> {
                        ObjectNode data = JSON.createObjectNode().put("rows", rows);
                        return new Progress(p.type(), data);
                    }
                    default -> System.out.println("  " + p.type().toLowerCase(java.util.Locale.ROOT));
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
        } catch (java.io.IOException e) {
            return null;
        }
    }

    private void writeSummary(Outcome o) throws Exception {
        if (summaryJson.file == null) {
            return;
        }
        ObjectNode json = JSON.createObjectNode();
        json.put("table", table);
        json.put("signal", o.signal());
        json.put("completed", o.completed());
        json.put("rowsReread", o.rowsReread());
        json.put("snapshotSeconds", Math.round(o.snapshotSeconds() * 10) / 10.0);
        json.put("rowsPerSecond", Math.round(o.rowsReread() / Math.max(o.snapshotSeconds(), 0.001)));
        json.put("keysGone", o.keysGone());
        json.put("keysDeleted", o.keysDeleted());
        json.put("keysLeft", o.keysGone() - o.keysDeleted());
        json.put("notSwept", o.notSwept());
        LinesFile.write(summaryJson.file, List.of(json.toString()));
    }
}
