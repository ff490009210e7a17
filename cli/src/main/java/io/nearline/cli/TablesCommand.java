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

import io.nearline.common.events.DebeziumKeys;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterOption;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.jobs.kit.console.CommandGroup;
import io.nearline.jobs.kit.console.DurationConverter;
import io.nearline.jobs.kit.processes.Home;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nearline tables list | add}: the tables a cluster's pipeline captures. */
@Command(
        name = "tables",
        mixinStandardHelpOptions = true,
        description = "The tables a cluster's pipeline captures: list them, or add one to the running pipeline.",
        subcommands = {TablesCommand.ListTables.class, TablesCommand.Add.class})
public final class TablesCommand extends CommandGroup {

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The tables of each database section.")
    static final class ListTables implements Callable<Integer> {
        @Mixin
        ClusterOption cluster;

        @Override
        public Integer call() {
            ClusterFile c = cluster.read();
            for (String kind : List.of("postgres", "mysql")) {
                try {
                    System.out.println(kind + ": " + String.join(", ", ClusterFile.tables(c.database(kind))));
                } catch (ClusterException none) {
                    // no such section
                }
            }
            return 0;
        }
    }

    @Command(
            name = "add",
            mixinStandardHelpOptions = true,
            description = {
                "Add a table to the running pipeline: the cluster file, then each cache updater (jobs upgrade: "
                        + "state and input positions kept, the new table taken), then Debezium's connector (its "
                        + "config in place, offsets kept), then an incremental snapshot of that table only "
                        + "(resync). The other tables are not read again. Run again after a failure: the steps "
                        + "already done are done again harmlessly.%n"
            })
    static final class Add implements Callable<Integer> {

        @Parameters(paramLabel = "TABLE", description = "The table, as the connector names it (public.notes).")
        String table;

        @Option(
                names = "--job",
                required = true,
                paramLabel = "DESCRIPTOR",
                description = "A cache updater taking the cluster's tables, by its descriptor; repeatable.")
        List<Path> jobs = new ArrayList<>();

        @Option(
                names = "--connector",
                paramLabel = "DESCRIPTOR",
                description = "Debezium's connector, by its descriptor (default: jobs/deploy/debezium-<source>.yaml).")
        Path connector;

        @Option(names = "--source", paramLabel = "DATABASE", description = "postgres or mysql (default: the one).")
        String source;

        @Option(
                names = "--set",
                paramLabel = "KEY=VALUE",
                description = "A setting the jobs were deployed with (cdc.format=debezium-json), for their upgrade.")
        Map<String, String> overrides = new LinkedHashMap<>();

        @Option(
                names = "--timeout",
                converter = DurationConverter.class,
                defaultValue = "30m",
                paramLabel = "DURATION",
                description = "How long the table's snapshot may take. Default: ${DEFAULT-VALUE}.")
        Duration timeout;

        @Mixin
        ClusterOption cluster;

        @Override
        public Integer call() throws Exception {
            ClusterFile c = cluster.read();
            String kind = source != null ? source : c.databaseKind();
            Map<String, String> db = c.database(kind);
            List<String> tables = new ArrayList<>(ClusterFile.tables(db));
            if (!tables.contains(table)) {
                List<String> after = new ArrayList<>(tables);
                after.add(table);
                keysStay(db, tables, c.withTables(kind, after).database(kind));
                hasAPrimaryKey(c, kind);
                c.withTables(kind, after).write();
                System.out.println("tables add " + table + ": the cluster file captures " + String.join(", ", after));
            } else {
                System.out.println("tables add " + table + ": the cluster file has it already; the other steps again");
            }
            String dir = c.dir().toString();
            for (Path job : jobs) {
                step("the job " + job.getFileName(), upgrade(job.toString(), dir));
            }
            Path debezium =
                    connector != null ? connector : Home.dir().resolve("jobs/deploy/debezium-" + kind + ".yaml");
            step(
                    "the connector",
                    NearlineCli.commandLine().execute("jobs", "upgrade", debezium.toString(), "--cluster", dir));
            int resync = NearlineCli.commandLine()
                    .execute(
                            "resync",
                            "--cluster",
                            dir,
                            "--source",
                            kind,
                            "--table",
                            table,
                            "--timeout",
                            timeout.toSeconds() + "s");
            step("the table's snapshot", resync);
            System.out.println("tables add " + table + ": done; the pipeline captures it, its rows are in the cache");
            return 0;
        }

        private int upgrade(String descriptor, String dir) {
            List<String> args = new ArrayList<>(List.of("jobs", "upgrade", descriptor, "--cluster", dir));
            overrides.forEach((k, v) -> args.addAll(List.of("--set", k + "=" + v)));
            return NearlineCli.commandLine().execute(args.toArray(String[]::new));
        }

        /** A step that failed ends the run (exit 1), saying what is done and how to go on. */
        private void step(String what, int exit) {
            if (exit != 0) {
                throw new ClusterException(
                        "tables add " + table + ": " + what + " failed (above); fix it and run the same command again",
                        1);
            }
        }

        /** Refuses a table whose coming would change the keys of the others (a cluster's first one gains its name). */
        private void keysStay(Map<String, String> before, List<String> tables, Map<String, String> after) {
            DebeziumKeys was = SourceDatabase.keysOf(before);
            DebeziumKeys will = SourceDatabase.keysOf(after);
            for (String t : tables) {
                if (!was.prefixOf(t).equals(will.prefixOf(t))) {
                    throw new ClusterException("adding " + table + " would change the cache keys of " + t + " ('"
                            + was.prefixOf(t) + "…' to '" + will.prefixOf(t) + "…'): give " + t + " its key prefix "
                            + "as it is (table." + t
                            + ".key-prefix in the cluster file's section) first, or re-bootstrap");
                }
            }
            if (will.sharedKeySpace().isPresent()) {
                throw new ClusterException(
                        "adding " + table + ": " + will.sharedKeySpace().get());
            }
        }

        private void hasAPrimaryKey(ClusterFile c, String kind) throws Exception {
            try (Connection conn = SourceDatabase.connect(c.database(kind))) {
                if (SourceDatabase.primaryKey(conn, table).isEmpty()) {
                    throw new ClusterException(table + " has no primary key (or is not in the database): "
                            + "the cache keys a table by it");
                }
            }
        }
    }
}
