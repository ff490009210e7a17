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
package io.nearline.localcluster.flinkrunner;

import io.nearline.common.config.Config;
import io.nearline.common.metrics.Metrics;
import io.nearline.feedtrackingjoin.core.JoinMetrics;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.jobs.kit.console.LinesFile;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.joinreplay.JoinReplay;
import io.nearline.localcluster.joinreplay.ReplayJoinOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.ScalarFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code replay-join-sql}: the same traffic joined by a Flink SQL job written as a user would write it
 * instead of Nearline's join, for {@code bench join --against flink-sql}. The index fragments are
 * interval-joined to their request's broker event on the request id, within the join window either
 * side; the rows are then aggregated to one per request in a session window of the join window, on
 * watermarks that trail each input by the allowed lateness. A fragment with no broker event in its
 * window comes out of the outer join alone: its request is an orphan. Events behind the watermark are
 * dropped, as Flink SQL drops them. The rows go to {@code sql-joined.jsonl} in the output directory,
 * each with its emission time and the arrival (Kafka) time of the newest event it holds.
 *
 * <p>The one addition to what a user would write: {@link Counted} counts the rows read, in this JVM,
 * under the join's own {@code events.received} name, so that the replay's rate is measured as it is
 * for Nearline's job.
 */
@Command(
        name = "replay-join-sql",
        mixinStandardHelpOptions = true,
        description = "Replays tracking events through a Flink SQL interval join (the baseline of bench join "
                + "--against flink-sql) and writes its rows to sql-joined.jsonl.")
public final class FlinkSqlJoinReplay extends FlinkEngine implements Callable<Integer>, JoinReplay.Engine {

    /** Where the SQL job writes its rows (JSON), one partition. */
    static final String OUTPUT_TOPIC = "tracking.sql.joined";

    @Mixin
    ReplayJoinOptions options;

    @Override
    public Integer call() throws Exception {
        return JoinReplay.run(options, this);
    }

    @Override
    public void run(
            Config config, JoinSettings settings, int partitions, Path work, Map<String, Map<Integer, Long>> ends)
            throws Exception {
        String servers = config.raw("kafka.bootstrap-servers").orElseThrow();
        KafkaClient kafka = KafkaClient.plaintext(servers);
        KafkaTopics.createTopics(kafka, Map.of(OUTPUT_TOPIC, 1));
        StreamTableEnvironment tables = StreamTableEnvironment.create(FlinkLocal.joinEnv(options.run, config, work));
        tables.createTemporarySystemFunction("counted", Counted.class);
        for (String statement : statements(settings, servers, ends)) {
            tables.executeSql(statement);
        }
        StatementSet insert = tables.createStatementSet();
        insert.addInsertSql(INSERT);
        insert.execute().await();
        List<String> rows = KafkaTopics.readAll(kafka, OUTPUT_TOPIC).stream()
                .map(r -> new String(r.value(), StandardCharsets.UTF_8))
                .sorted()
                .toList();
        LinesFile.write(options.outDir.resolve("sql-joined.jsonl"), rows);
        System.out.printf("  flink sql: %,d rows in %s%n", rows.size(), options.outDir.resolve("sql-joined.jsonl"));
    }

    /** The tables and views, as a user would declare them for these topics (Avro, as the job's own inputs). */
    static List<String> statements(JoinSettings settings, String servers, Map<String, Map<Integer, Long>> ends) {
        String window = seconds(settings.window());
        String lateness = seconds(settings.allowedLateness());
        return List.of(
                FRAGMENTS.formatted(lateness, kafka(settings.indexTopic(), servers, ends)),
                BROKERS.formatted(lateness, kafka(settings.brokerTopic(), servers, ends)),
                SINK.formatted(OUTPUT_TOPIC, servers),
                "CREATE TEMPORARY VIEW fragments AS SELECT counted(requestId) AS requestId, node, rt, arrived "
                        + "FROM index_fragments",
                "CREATE TEMPORARY VIEW requests AS SELECT counted(requestId) AS requestId, fanout, rt, arrived "
                        + "FROM broker_events",
                JOINED.formatted(window, window),
                WINDOWED.formatted(window));
    }

    /** An interval literal's seconds, to the millisecond. */
    private static String seconds(Duration d) {
        return String.format("%d.%03d", d.toSeconds(), d.toMillisPart());
    }

    /** A Kafka source table's options: the topic from its start to where the replay's input ends. */
    private static String kafka(String topic, String servers, Map<String, Map<Integer, Long>> ends) {
        String offsets = ends.getOrDefault(topic, Map.of()).entrySet().stream()
                .map(e -> "partition:" + e.getKey() + ",offset:" + e.getValue())
                .collect(Collectors.joining(";"));
        return String.join(
                ",\n  ",
                "'connector' = 'kafka'",
                "'topic' = '" + topic + "'",
                "'properties.bootstrap.servers' = '" + servers + "'",
                "'properties.group.id' = 'nearline-sql-join'",
                "'scan.startup.mode' = 'earliest-offset'",
                "'scan.bounded.mode' = 'specific-offsets'",
                "'scan.bounded.specific-offsets' = '" + offsets + "'",
                "'format' = 'avro'");
    }

    private static final String FRAGMENTS = """
            CREATE TABLE index_fragments (
              requestId STRING NOT NULL,
              node STRING NOT NULL,
              eventTimeMillis BIGINT NOT NULL,
              docs ARRAY<ROW<id STRING NOT NULL, score DOUBLE NOT NULL,
                             features MAP<STRING NOT NULL, DOUBLE NOT NULL> NOT NULL> NOT NULL> NOT NULL,
              arrived TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
              rt AS TO_TIMESTAMP_LTZ(eventTimeMillis, 3),
              WATERMARK FOR rt AS rt - INTERVAL '%s' SECOND
            ) WITH (
              %s
            )""";

    private static final String BROKERS = """
            CREATE TABLE broker_events (
              requestId STRING NOT NULL,
              eventTimeMillis BIGINT NOT NULL,
              fanout ARRAY<STRING NOT NULL> NOT NULL,
              viewer STRING NOT NULL,
              ranking ARRAY<STRING NOT NULL> NOT NULL,
              modelVersion STRING NOT NULL,
              arrived TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
              rt AS TO_TIMESTAMP_LTZ(eventTimeMillis, 3),
              WATERMARK FOR rt AS rt - INTERVAL '%s' SECOND
            ) WITH (
              %s
            )""";

    private static final String SINK = """
            CREATE TABLE sql_joined (
              requestId STRING,
              joined BOOLEAN,
              nodes STRING,
              fanout INT,
              lastArrived TIMESTAMP_LTZ(3),
              emitted TIMESTAMP_LTZ(3)
            ) WITH (
              'connector' = 'kafka',
              'topic' = '%s',
              'properties.bootstrap.servers' = '%s',
              'format' = 'json',
              'json.timestamp-format.standard' = 'ISO-8601'
            )""";

    /** Each fragment with its request's broker event within the window either side (none: an orphan's). */
    private static final String JOINED = """
            CREATE TEMPORARY VIEW fragment_requests AS
            SELECT f.requestId, f.node, f.rt, r.requestId AS brokerRequestId, CARDINALITY(r.fanout) AS fanout,
                   GREATEST(f.arrived, COALESCE(r.arrived, f.arrived)) AS arrived
            FROM fragments f LEFT JOIN requests r
              ON f.requestId = r.requestId
             AND f.rt BETWEEN r.rt - INTERVAL '%s' SECOND AND r.rt + INTERVAL '%s' SECOND""";

    /** One row per request: the nodes joined (or, with no broker event, the orphaned ones). */
    private static final String WINDOWED = """
            CREATE TEMPORARY VIEW requests_joined AS
            SELECT requestId,
                   COUNT(brokerRequestId) > 0 AS joined,
                   LISTAGG(DISTINCT node) AS nodes,
                   MAX(fanout) AS fanout,
                   MAX(arrived) AS lastArrived
            FROM TABLE(SESSION(TABLE fragment_requests PARTITION BY requestId, DESCRIPTOR(rt), INTERVAL '%s' SECOND))
            GROUP BY requestId, window_start, window_end""";

    private static final String INSERT =
            "INSERT INTO sql_joined SELECT requestId, joined, nodes, fanout, lastArrived, NOW() FROM requests_joined";

    /** The rows read, counted as the join counts its input ({@code events.received}), so the rate is read alike. */
    public static final class Counted extends ScalarFunction {
        private transient Metrics.Counter received;

        @Override
        public void open(FunctionContext context) {
            received = FlinkLocal.METRICS.counter(JoinMetrics.RECEIVED);
        }

        public String eval(String requestId) {
            received.inc();
            return requestId;
        }

        @Override
        public boolean isDeterministic() {
            return false; // counts every row: never folded or reused
        }
    }
}
