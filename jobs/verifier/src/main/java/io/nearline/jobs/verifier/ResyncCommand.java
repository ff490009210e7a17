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
import io.nearline.common.store.CacheStore;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterOption;
import io.nearline.jobs.cluster.ConnectRest;
import io.nearline.jobs.cluster.LiveStores;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.jobs.kit.console.DurationConverter;
import io.nearline.jobs.kit.console.LinesFile;
import io.nearline.jobs.kit.console.SummaryJsonOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code nearline resync}: {@link TableResync} on a cluster: the connector and its signalling table found
 * through the cluster's Kafka Connect, the database and the cache through the cluster file.
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
        SourceRepair repair = new SourceRepair(
                c,
                kind,
                (config == null ? Config.empty() : Config.load(config)).withOverrides(overrides),
                watermarkTopic,
                Duration.ofSeconds(60));
        TableResync resync = new TableResync(
                SourceDatabase.fromClusterFile(c.dir(), kind),
                signalTable,
                c.kafka(),
                notifications,
                repair,
                timeout,
                System.out);
        TableResync.Outcome o;
        try (CacheStore cache = LiveStores.open(c.store(), c)) {
            o = resync.run(table, where, cache);
        }
        if (!o.completed()) {
            System.out.println("  watch " + c.connectRest() + "/connectors/" + name + "/status");
        }
        writeSummary(o);
        return o.done() ? 0 : 1;
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

    private void writeSummary(TableResync.Outcome o) throws Exception {
        if (summaryJson.file == null) {
            return;
        }
        ObjectNode json = new ObjectMapper().createObjectNode();
        json.put("table", o.table());
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
