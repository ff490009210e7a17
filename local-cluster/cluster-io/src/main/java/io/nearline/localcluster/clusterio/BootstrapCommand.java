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
package io.nearline.localcluster.clusterio;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cdcbootstrap.core.BootstrapSchedule;
import io.nearline.cdcbootstrap.core.BootstrapSettings;
import io.nearline.cdcbootstrap.core.SnapshotFile;
import io.nearline.cdcbootstrap.core.SnapshotProducer;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.JobKeys;
import io.nearline.common.config.KafkaSecurity;
import io.nearline.common.config.ValueType;
import io.nearline.jobs.cluster.database.DebeziumWatermarks;
import io.nearline.jobs.kit.console.CommandGroup;
import io.nearline.jobs.kit.console.DurationConverter;
import io.nearline.jobs.kit.console.Progress;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.cluster.ClusterCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.KafkaProducer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nearline bootstrap ...}: publish a snapshot on demand, and the periodic schedule's state. */
@Command(
        name = "bootstrap",
        mixinStandardHelpOptions = true,
        description = "Bootstrap the cache from a snapshot: publish one now, or check the periodic schedule.",
        subcommands = {BootstrapCommand.Run.class, BootstrapCommand.Status.class, CommandLine.HelpCommand.class})
public final class BootstrapCommand extends CommandGroup {

    /** Exit code of {@code bootstrap status} when the schedule is overdue (or never ran). */
    static final int OVERDUE = 3;

    /** The broker and how to reach it: known keys for both commands, needed by 'run' alone. */
    private static final ConfigDef BROKER = ConfigDef.of(
            "broker",
            ConfigKey.of(
                    JobKeys.BOOTSTRAP_SERVERS.name(), ValueType.STRING, "", JobKeys.BOOTSTRAP_SERVERS.description()));

    /** Settings common to both commands: the config file, overrides, the schedule's state file. */
    static class Common {
        @Option(
                names = "--config",
                paramLabel = "FILE",
                description =
                        "Settings (.properties or .yaml): bootstrap.*, cache.ttl, kafka.bootstrap-servers, kafka.security.* (docs/clusters.md).")
        Path config;

        @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Overrides one setting; repeatable.")
        Map<String, String> overrides = new LinkedHashMap<>();

        @Option(
                names = "--state",
                paramLabel = "FILE",
                description = "Where the schedule keeps when the last bootstrap started and completed (default: "
                        + "nearline-bootstrap.state; with --from: DIR/bootstrap/schedule.state).")
        Path state;

        Path state() {
            return state != null ? state : Path.of("nearline-bootstrap.state");
        }

        /** The settings, typos in Nearline's namespaces refused before anything starts. */
        Config config() {
            return (config == null ? Config.empty() : Config.load(config))
                    .withOverrides(overrides)
                    .validateComplete(BootstrapSettings.DEF, WriterSettings.DEF, BROKER, KafkaSecurity.DEF);
        }

        /** The settings, the period checked against the TTL before anything starts (both keys named if not). */
        BootstrapSettings settings() {
            return BootstrapSettings.from(config());
        }
    }

    @Command(
            name = "run",
            mixinStandardHelpOptions = true,
            description = {
                "Publish a snapshot to the bootstrap topic now (the on-demand trigger of the periodic bootstrap).",
                "%nA BEGIN marker on every partition (snapshot id, high-watermarks, row counts, the change stream's "
                        + "current end offsets), the rows in chunks, an END marker. Progress is saved after each "
                        + "chunk in --progress: run the same command again after a failure and it resumes.",
                "%nWith --from, the snapshot is taken from the cluster's database first (one consistent read at a "
                        + "known point of the change stream, written to DIR/bootstrap/KIND.snapshot.jsonl); run again "
                        + "after a failure, it resumes that snapshot, once published a new one is taken.%n"
            })
    public static final class Run extends Common implements Callable<Integer> {

        @Option(
                names = "--snapshot",
                paramLabel = "SNAPSHOT.jsonl",
                description = "The snapshot: change events with op UPSERT, optionally headed by "
                        + "{\"snapshot\":ID,\"highWatermarks\":{...}}. With --from: where the database's snapshot is"
                        + " written (default: DIR/bootstrap/KIND.snapshot.jsonl).")
        Path snapshot;

        @Option(
                names = "--from",
                paramLabel = "postgres|mysql",
                description = "Take the snapshot from the database the cluster file's postgres: or mysql: section "
                        + "names (MariaDB for mysql), of every table it lists, at a known point of Debezium's change "
                        + "stream; each table's rows keyed by its key fields, or its primary key.")
        String from;

        @Option(
                names = "--table",
                paramLabel = "SCHEMA.TABLE",
                description = "With --from: this table only, one the section lists (default: every table it lists, "
                        + "all read in one transaction, at one point of the change stream).")
        String table;

        @Option(
                names = "--cluster",
                paramLabel = "DIR",
                defaultValue = ClusterCommand.DEFAULT_DIR,
                description = "With --from: the cluster whose database, broker and bootstrap state are used "
                        + "(default: ${DEFAULT-VALUE}).")
        Path cluster;

        @Option(
                names = "--watermark-topic",
                defaultValue = "nearline-pg.message",
                description = "With --from postgres: where Debezium's connector streams logical-decoding messages, "
                        + "<topic.prefix>.message (default: ${DEFAULT-VALUE}, the shipped descriptor's).")
        String watermarkTopic;

        @Option(
                names = "--wait",
                defaultValue = "60s",
                paramLabel = "DURATION",
                converter = DurationConverter.class,
                description = "With --from: how long to wait for the watermark to stream, and for transactions open "
                        + "at it (default: ${DEFAULT-VALUE}).")
        Duration wait;

        @Option(
                names = "--partitions",
                defaultValue = "4",
                description = "Partitions of the bootstrap topic if it must be created (default: ${DEFAULT-VALUE}).")
        int partitions;

        @Option(
                names = "--cdc-topic",
                defaultValue = "nearline.cdc",
                description =
                        "The change stream, whose end offsets the BEGIN markers record (default: ${DEFAULT-VALUE}).")
        String cdcTopic;

        @Option(
                names = "--progress",
                paramLabel = "FILE",
                description = "Where progress is saved (default: SNAPSHOT.jsonl.progress).")
        Path progress;

        @Override
        public Integer call() throws Exception {
            FromDatabase database = fromDatabase();
            BootstrapSettings settings = settings();
            Config config = config();
            KafkaClient brokers = KafkaClient.from(config);
            Path progressFile =
                    progress != null ? progress : snapshot.resolveSibling(snapshot.getFileName() + ".progress");
            Instant started = Instant.now();
            ScheduleState.save(state(), started, ScheduleState.load(state()).lastCompleted());
            KafkaTopics.createTopics(brokers, Map.of(settings.topic(), partitions));
            int topicPartitions =
                    KafkaTopics.endOffsets(brokers, settings.topic()).size();
            // the live stream's position before the snapshot is read: no change falls between the two
            Map<Integer, Long> live = KafkaTopics.endOffsets(brokers, cdcTopic);
            if (database != null) {
                database.snapshotUnlessResuming(
                        snapshot, progressFile, new DebeziumWatermarks(brokers, watermarkTopic));
            }
            SnapshotFile rows = SnapshotFile.open(snapshot);
            SnapshotProducer.Result result;
            try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(brokers);
                    Progress bar =
                            new Progress("snapshot records sent", rows.rowCount() + 2L * topicPartitions, System.err)) {
                result = new SnapshotProducer(
                                producer,
                                settings.topic(),
                                topicPartitions,
                                settings.chunkRows(),
                                config.get(CacheUpdaterSettings.DEAD_LETTER_TOPIC))
                        .publish(rows, progressFile, live, bar::step);
            }
            Instant done = Instant.now();
            ScheduleState.save(state(), started, done);
            System.out.printf(
                    "bootstrap run: snapshot %s published to %s (%d partitions): %,d rows%s in %.1f s%n",
                    rows.id(),
                    settings.topic(),
                    topicPartitions,
                    rows.rowCount(),
                    result.resumed() ? " (resumed: " + result.rowsSentNow() + " sent now)" : "",
                    Duration.between(started, done).toMillis() / 1000.0);
            System.out.printf(
                    "  high-watermarks %s; the live stream's offsets at its start %s%n", rows.highWatermarks(), live);
            System.out.printf(
                    "  next bootstrap due by %s (bootstrap.period %s, cache.ttl %s)%n",
                    done.plus(settings.period()), settings.period(), settings.ttl());
            if (!result.refused().isEmpty()) {
                System.out.printf(
                        "bootstrap run: %d rows were too large for %s and went to %s; these partitions will not verify"
                                + " complete: %s%n",
                        result.refused().size(),
                        settings.topic(),
                        config.get(CacheUpdaterSettings.DEAD_LETTER_TOPIC),
                        result.refused());
                return 1;
            }
            return 0;
        }

        /**
         * With --from, the cluster's database as the source, its broker, snapshot file and schedule state
         * the defaults; null for a snapshot file given with --snapshot.
         */
        private FromDatabase fromDatabase() {
            if (snapshot == null && from == null) {
                throw new IllegalArgumentException(
                        "bootstrap run needs --snapshot FILE, or --from postgres|mysql --cluster DIR");
            }
            if (from == null) {
                return null;
            }
            FromDatabase database = new FromDatabase(from, cluster, wait, table);
            database.kafkaSettings().forEach(overrides::putIfAbsent);
            snapshot = snapshot != null ? snapshot : database.defaultSnapshotFile();
            state = state != null ? state : database.stateFile();
            return database;
        }
    }

    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            description = {
                "Show the periodic bootstrap's state: OK, DUE (a period since the last start), OVERDUE (a period "
                        + "since the last completion: rows only a bootstrap rewrites are getting close to their TTL) or "
                        + "NEVER_RUN. Exits 3 when OVERDUE or NEVER_RUN, so a cron job or a probe can alert on it."
            })
    public static final class Status extends Common implements Callable<Integer> {

        @Override
        public Integer call() {
            BootstrapSettings settings = settings();
            BootstrapSchedule schedule = new BootstrapSchedule(settings.period(), settings.ttl());
            ScheduleState s = ScheduleState.load(state());
            Instant now = Instant.now();
            BootstrapSchedule.State st = schedule.state(s.lastStarted(), s.lastCompleted(), now);
            System.out.printf("bootstrap status: %s (period %s, ttl %s)%n", st, settings.period(), settings.ttl());
            System.out.printf("  last started %s, last completed %s%n", s.lastStarted(), s.lastCompleted());
            if (s.lastCompleted() != null) {
                System.out.printf(
                        "  rows only a bootstrap rewrites start to expire in %s%n",
                        schedule.marginBeforeExpiry(s.lastCompleted(), now));
            }
            return st == BootstrapSchedule.State.OVERDUE || st == BootstrapSchedule.State.NEVER_RUN ? OVERDUE : 0;
        }
    }

    /** When the last bootstrap started and completed, in a small properties file. */
    record ScheduleState(Instant lastStarted, Instant lastCompleted) {

        static ScheduleState load(Path file) {
            if (!Files.exists(file)) {
                return new ScheduleState(null, null);
            }
            Properties p = new Properties();
            try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
            }
            return new ScheduleState(instant(p.getProperty("last-started")), instant(p.getProperty("last-completed")));
        }

        static void save(Path file, Instant started, Instant completed) {
            String text = "last-started=" + (started == null ? "" : started) + "\nlast-completed="
                    + (completed == null ? "" : completed) + "\n";
            try {
                Files.writeString(file, text, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
            }
        }

        private static Instant instant(String s) {
            return s == null || s.isBlank() ? null : Instant.parse(s);
        }
    }
}
