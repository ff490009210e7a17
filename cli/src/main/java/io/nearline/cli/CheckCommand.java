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
import io.nearline.common.cache.CacheKey;
import io.nearline.common.events.ChangeDecoder;
import io.nearline.common.events.DebeziumDecoder;
import io.nearline.common.store.CacheStore;
import io.nearline.jobs.checker.CacheView;
import io.nearline.jobs.checker.DivergenceChecker;
import io.nearline.jobs.checker.TableCheck;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterOption;
import io.nearline.jobs.cluster.LiveStores;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.jobs.kit.console.LinesFile;
import io.nearline.jobs.kit.console.SummaryJsonOption;
import io.nearline.localcluster.cdcreplay.ReplayCdcOptions;
import io.nearline.localcluster.kit.options.WaitOption;
import io.nearline.localcluster.sourcesimulator.ChangeLogTruth;
import io.nearline.localcluster.sourcesimulator.StateDumpView;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nearline check}: a cache state against the source of truth, key by key. */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = {
            "Compare a cache state dump with the source of truth and report every divergent key by kind: "
                    + "STALE, MISSING, RESURRECTED (a delete lost), EXTRA, AHEAD, CORRUPT.",
            "%nThe source of truth is given as its change log (JSON lines, any order): per key the valid event "
                    + "with the highest version. Exits 0 when nothing diverges, 1 otherwise, and 1 when no key "
                    + "was checked at all (an empty log, or a Debezium log read without --format debezium).%n",
            "With --source postgres|mysql the source of truth is the database itself, every table the cluster "
                    + "file's 'postgres:' or 'mysql:' section lists, each reported on its own: every row must be cached with the same value in every "
                    + "column that reads alike from JDBC and Debezium's JSON (numbers, text, booleans; the others "
                    + "are listed, not compared), and every key --events deleted must be gone (DIFFERENT, MISSING, "
                    + "RESURRECTED).%n"
        })
public final class CheckCommand implements Callable<Integer> {

    @Option(
            names = "--events",
            paramLabel = "FILE",
            description = "The change log; repeat for several files. With --source, the keys it names are checked "
                    + "too (deleted rows).")
    List<Path> events = List.of();

    @Option(
            names = "--source",
            paramLabel = "DATABASE",
            description = "Check against the database instead of a change log: postgres or mysql (MariaDB too), the "
                    + "tables the cluster file's section of that name lists, each checked and reported on its own "
                    + "(docs/debezium.md#many-tables).")
    String source;

    @Option(
            names = "--format",
            defaultValue = "nearline",
            description = "Form of the change log: nearline (this project's text form) or debezium (Debezium's "
                    + "records, as replay cdc --format debezium reads them). Default: ${DEFAULT-VALUE}.")
    ReplayCdcOptions.Format format;

    @Option(
            names = "--state",
            paramLabel = "STATE.jsonl",
            description = "The cache state dump (as written by replay cdc); or --store with --cluster.")
    Path state;

    @Option(
            names = "--store",
            paramLabel = "STORE",
            description =
                    "Check a live store instead of a dump: couchbase or redis, the cluster's cache as its cluster file names it.")
    String store;

    @Mixin
    ClusterOption cluster;

    @Mixin
    WaitOption waitFor;

    @Mixin
    SummaryJsonOption summaryJson;

    @Option(
            names = "--max-payload-bytes",
            defaultValue = "1048576",
            description =
                    "Payload limit the job used; larger events are not part of the truth (default: ${DEFAULT-VALUE}).")
    int maxPayloadBytes;

    /** With --source: each table's report, by name. */
    private Map<String, DivergenceChecker.Report> byTable = Map.of();

    @Override
    public Integer call() throws Exception {
        if ((state == null) == (store == null)) {
            throw new ClusterException("give either --state FILE or --store couchbase (with --cluster DIR)");
        }
        if (source == null && events.isEmpty()) {
            throw new ClusterException("give the source of truth: --events FILE (its change log), or --source "
                    + "postgres|mysql (the database, with --cluster DIR)");
        }
        DivergenceChecker.Report report;
        ChangeLogTruth truth = null;
        if (source == null) {
            truth = new ChangeLogTruth(events, maxPayloadBytes, format.decoder());
        }
        if (source != null) {
            report = checkAgainstTheDatabase();
        } else if (state != null) {
            StateDumpView cache = new StateDumpView(state);
            report = DivergenceChecker.check(truth, cache, cache.keys(), System.currentTimeMillis());
        } else {
            report = checkLiveStore(truth);
        }
        System.out.println("check: " + report.summary());
        if (summaryJson.file != null) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("keysChecked", report.keysChecked());
            json.put("divergentKeys", report.divergent().size());
            report.counts().forEach((kind, n) -> json.put(kind.name().toLowerCase(), n));
            if (!byTable.isEmpty()) {
                Map<String, Object> tables = new LinkedHashMap<>();
                byTable.forEach((name, r) -> {
                    Map<String, Object> t = new LinkedHashMap<>();
                    t.put("keysChecked", r.keysChecked());
                    t.put("divergentKeys", r.divergent().size());
                    r.counts().forEach((kind, n) -> t.put(kind.name().toLowerCase(), n));
                    tables.put(name, t);
                });
                json.put("tables", tables);
            }
            LinesFile.write(summaryJson.file, List.of(new ObjectMapper().writeValueAsString(json)));
        }
        if (report.keysChecked() == 0) {
            // nothing compared is no evidence: never OK
            System.out.println("NOTHING CHECKED: "
                    + (source != null
                            ? "the table has no row and the change log no key"
                            : "the change log holds no " + "change event this check can read and the cache no key")
                    + (format == ReplayCdcOptions.Format.nearline ? " (a Debezium log needs --format debezium)" : "")
                    + ".");
            return 1;
        }
        System.out.println(report.converged() ? "OK: the cache matches the source of truth." : "DIVERGED.");
        return report.converged() ? 0 : 1;
    }

    /**
     * The cache against every table the cluster file lists, each reported on its own; the change log's
     * keys (read by the same key rule) checked too, each with its table. Against a live store, until
     * --wait is up.
     */
    private DivergenceChecker.Report checkAgainstTheDatabase() throws Exception {
        if (!source.equals("postgres") && !source.equals("mysql")) {
            throw new ClusterException("--source " + source + ": give postgres or mysql");
        }
        SourceDatabase database;
        SourceDatabase.Read read;
        try {
            database = SourceDatabase.fromClusterFile(cluster.read().dir(), source);
            read = database.read();
        } catch (java.sql.SQLException e) {
            throw new ClusterException(
                    "cannot read the tables of the cluster file's '" + source + ":' section: " + e.getMessage());
        }
        System.out.println("source: " + database);
        read.tables()
                .forEach((name, rows) -> System.out.printf(
                        "  %s: %,d rows; columns compared %s%s%n",
                        name,
                        rows.byKey().size(),
                        rows.compared(),
                        rows.notCompared().isEmpty() ? "" : ", not compared " + rows.notCompared()));
        ChangeDecoder logDecoder = format == ReplayCdcOptions.Format.debezium
                ? new DebeziumDecoder(read.forChangeLog(), DebeziumDecoder.AUTO)
                : format.decoder();
        ChangeLogTruth log = new ChangeLogTruth(events, maxPayloadBytes, logDecoder);
        Map<String, TableCheck.Table> tables = new LinkedHashMap<>();
        read.tables().forEach((name, rows) -> {
            Map<CacheKey, ObjectNode> byKey = new TreeMap<>();
            rows.byKey().forEach((k, row) -> byKey.put(CacheKey.of(k), row));
            List<CacheKey> logged = log.keys().stream()
                    .filter(k -> name.equals(read.tableOf(k.value())))
                    .toList();
            tables.put(name, new TableCheck.Table(byKey, rows.compared(), logged));
        });
        TableCheck.Tables checked;
        if (state != null) {
            checked = TableCheck.check(tables, new StateDumpView(state));
        } else {
            try (CacheStore cache = LiveStores.open(store, cluster.read())) {
                TableCheck.Tables[] last = {null};
                DivergenceChecker.checkUntil(
                        () -> {
                            last[0] = TableCheck.check(tables, CacheView.of(cache));
                            return last[0].total();
                        },
                        waitFor.deadlineNanos(),
                        Duration.ofSeconds(2),
                        report -> System.err.println("  not yet: " + report.summary()));
                checked = last[0];
            }
        }
        byTable = checked.byTable();
        System.out.println("check per table:");
        System.out.println(checked.perTable());
        return checked.total();
    }

    /** Against the cluster's store, again and again until it converges or --wait is up. */
    private DivergenceChecker.Report checkLiveStore(ChangeLogTruth truth) {
        try (CacheStore cache = LiveStores.open(store, cluster.read())) {
            return DivergenceChecker.checkUntil(
                    truth,
                    CacheView.of(cache),
                    waitFor.deadlineNanos(),
                    Duration.ofSeconds(2),
                    report -> System.err.println("  not yet: " + report.summary()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted");
        }
    }
}
