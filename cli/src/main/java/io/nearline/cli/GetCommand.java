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
package io.nearline.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.common.config.Config;
import io.nearline.jobs.client.CachedRow;
import io.nearline.jobs.client.JdbcRowSource;
import io.nearline.jobs.client.NearlineClient;
import io.nearline.jobs.client.Read;
import io.nearline.jobs.client.Through;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterOption;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.jobs.kit.console.DurationConverter;
import io.nearline.jobs.kit.console.LinesFile;
import io.nearline.jobs.kit.console.SummaryJsonOption;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nearline get}: one row as an application reads it through the client library. */
@Command(
        name = "get",
        mixinStandardHelpOptions = true,
        description = {
            "Read one row of a cluster's cache as an application does through the client library "
                    + "(docs/reading.md): its key, the record the cache holds (the row, its version, when and "
                    + "from which partition it was written) and how far the job's published consistent-through "
                    + "says the cache holds the table. With --max-staleness, a bounded read: from the cache "
                    + "within the bound, else from the database, written back through the ordered write.%n",
            "Exits 0 when the row was found, 1 when there is none (absent or deleted), 2 on bad options.%n"
        })
public final class GetCommand implements Callable<Integer> {

    @Option(
            names = "--table",
            required = true,
            paramLabel = "TABLE",
            description = "The table, as the connector names it (public.items; on MariaDB, DATABASE.items).")
    String table;

    @Parameters(arity = "1..*", paramLabel = "KEY", description = "The row's key values, in the key's column order.")
    List<String> keyValues;

    @Option(
            names = "--max-staleness",
            converter = DurationConverter.class,
            paramLabel = "DURATION",
            description = "Read within this bound: from the cache when the table's consistent-through is no "
                    + "older, else from the cluster's database (and written back).")
    Duration maxStaleness;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "The cache updater's settings (a descriptor's .properties or .yaml), for its key rule, "
                    + "TTLs and where it publishes consistent-through.")
    Path config;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Overrides one setting; repeatable.")
    Map<String, String> overrides = new LinkedHashMap<>();

    @Mixin
    ClusterOption cluster;

    @Mixin
    SummaryJsonOption summaryJson;

    @Override
    public Integer call() throws Exception {
        ClusterFile c = cluster.read();
        Map<String, String> descriptor = new LinkedHashMap<>(Map.of("cdc.format", "debezium-json"));
        if (config != null) {
            descriptor.putAll(Config.load(config).asMap());
        }
        Config settings = Config.of(c.jobSettings(descriptor, overrides));
        String kind = c.databaseKind();
        SourceDatabase database = SourceDatabase.fromClusterFile(c.dir(), kind);
        if (!database.keys().tables().isEmpty() && !database.keys().tables().containsKey(table)) {
            throw new ClusterException("--table " + table + " is not among the cluster's tables ("
                    + String.join(", ", database.keys().tables().keySet()) + ")");
        }
        try (JdbcRowSource rows = new JdbcRowSource(
                        kind,
                        () -> DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password()),
                        database.keys());
                NearlineClient client = NearlineClient.open(settings, rows)) {
            String key = client.key(table, keyValues);
            Optional<CachedRow> cached = client.get(table, keyValues);
            Optional<Through> through = client.consistentThrough(table);
            long now = System.currentTimeMillis();
            System.out.println(key);
            System.out.println("  cache    " + cached.map(GetCommand::describe).orElse("absent"));
            System.out.println("  through  "
                    + through.map(t -> String.format(
                                    "%.1f s behind the source (the oldest of %d entries, version %s)",
                                    t.stalenessMillis(now) / 1000.0, t.entries(), t.version()))
                            .orElse("nothing published (write.consistent-through.publish-every is off, or the job has "
                                    + "written nothing yet)"));
            ObjectNode json =
                    new ObjectMapper().createObjectNode().put("table", table).put("key", key);
            json.put("cached", cached.isPresent() && !cached.get().tombstone());
            through.ifPresent(t -> json.put("stalenessMillis", t.stalenessMillis(now)));
            boolean found = cached.isPresent() && !cached.get().tombstone();
            String row = cached.map(CachedRow::row).orElse(null);
            String from = "cache";
            if (maxStaleness != null) {
                Read read = client.read(table, maxStaleness, keyValues);
                found = read.found();
                row = read.row();
                from = read.from() == Read.From.CACHE ? "cache" : "database";
                String bound = maxStaleness.toMillis() % 1000 == 0
                        ? maxStaleness.toSeconds() + " s"
                        : maxStaleness.toMillis() + " ms";
                System.out.println("  read     from the " + from
                        + (read.from() == Read.From.CACHE
                                ? String.format(" (%.1f s behind, within %s)", read.stalenessMillis() / 1000.0, bound)
                                : " (the cache could not answer within " + bound + "); written back: "
                                        + read.written()));
                json.put("writtenBack", read.written());
            }
            System.out.println("  row      " + (row == null ? "none" : row));
            json.put("from", from).put("found", found).put("row", row);
            if (summaryJson.file != null) {
                LinesFile.write(summaryJson.file, List.of(json.toString()));
            }
            return found ? 0 : 1;
        }
    }

    private static String describe(CachedRow r) {
        return (r.tombstone() ? "a tombstone" : "a row") + " at version " + r.version() + ", written "
                + Instant.ofEpochMilli(r.writeTimeMillis()) + " from partition " + r.sourcePartition();
    }
}
