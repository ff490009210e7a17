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
package io.nearline.cdcbootstrap.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.events.ChangeEventText;
import io.nearline.common.events.DebeziumDecoder;
import io.nearline.common.events.DebeziumKeys;
import io.nearline.common.events.DebeziumVersion;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A consistent snapshot of the tables of PostgreSQL or MySQL/MariaDB a cache holds, all read in one
 * transaction, at a known point of the change
 * stream Debezium's connector captures from it, written as a snapshot file for {@link SnapshotProducer}.
 * Every row carries one version, the snapshot's point, in the same order as the streamed changes'
 * versions: every change the snapshot's reads saw is below it, and every change they did not see is
 * above it. So the snapshot and the stream can be applied in any order and end at the table
 * (docs/debezium.md#bootstrap-from-the-database).
 *
 * <ul>
 *   <li><b>MySQL/MariaDB</b>: {@code START TRANSACTION WITH CONSISTENT SNAPSHOT}, then MariaDB's
 *       {@code binlog_snapshot_file} and {@code binlog_snapshot_position}: the binlog position the
 *       snapshot is consistent with. Every change committed after it is written further on in the
 *       binlog, so its version is above; the rows take that position's version, as the connector's own
 *       snapshot reads do.
 *   <li><b>PostgreSQL</b>: a streamed change's version is the commit before its transaction (Debezium's
 *       {@code lastCommitLsn}), which no query can read. So the snapshot writes a watermark first: a
 *       transactional logical-decoding message ({@code pg_logical_emit_message}), which the connector
 *       streams with the version of the commit before it, W. Then it waits for every transaction still
 *       open (one that wrote its commit before the watermark may not be visible yet), and reads in a
 *       repeatable-read transaction, which sees every commit up to the watermark. The rows take (W + 1,
 *       0): above every change before the watermark, below every change after it (those carry the
 *       watermark's own commit position or a later one, which is at least W + 1, and a sequence above 0).
 * </ul>
 */
public final class DatabaseSnapshot {

    /** The logical-decoding message prefix of the PostgreSQL watermark; its content is the snapshot's id. */
    public static final String WATERMARK_PREFIX = "nearline-bootstrap";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter ID_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    /** The database a snapshot reads. */
    public enum Source {
        POSTGRES,
        MYSQL;

        /** {@code postgres} or {@code mysql} (MariaDB too), as the command line and the cluster file name it. */
        public static Source of(String kind) {
            return switch (kind) {
                case "postgres" -> POSTGRES;
                case "mysql" -> MYSQL;
                default -> throw new IllegalArgumentException("--from must be postgres or mysql, got '" + kind + "'");
            };
        }
    }

    /**
     * Where the connector's delivery of the PostgreSQL watermark is read: the position its event
     * carries, waited for at most {@code limit}; IllegalStateException when it does not come.
     */
    public interface Watermarks {
        DebeziumVersion.Position await(String snapshotId, Duration limit);
    }

    /**
     * The position Debezium's connector gave the watermark of {@code snapshotId}, when {@code value} (a
     * record of its {@code <topic.prefix>.message} topic, JSON with or without the schema wrapper) is
     * that watermark; null for any other record.
     */
    public static DebeziumVersion.Position watermark(byte[] value, String snapshotId) {
        if (value == null) {
            return null;
        }
        JsonNode envelope;
        try {
            envelope = DebeziumDecoder.unwrap(JSON.readTree(value));
        } catch (IOException notJson) {
            return null;
        }
        if (envelope == null || !"m".equals(envelope.path("op").asText())) {
            return null;
        }
        JsonNode message = envelope.path("message");
        if (!WATERMARK_PREFIX.equals(message.path("prefix").asText())) {
            return null;
        }
        String content = message.path("content").asText("");
        try {
            content = new String(Base64.getDecoder().decode(content), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            // a converter that writes bytes as text
        }
        return content.equals(snapshotId) ? DebeziumVersion.ofStreamed(envelope) : null;
    }

    /** A snapshot written: its id, the version of its rows, where that came from, and its row count. */
    public record Taken(String id, long scn, String point, long rows) {}

    private final Connection connection;
    private final Source source;
    private final DebeziumKeys keys;
    private final Duration limit;

    /**
     * @param keys  the tables read, in order, and their cache key rule: the cache updater's
     *     ({@code cdc.debezium.*}), with every table's key fields named (its primary key where the job
     *     takes the record key's)
     * @param limit how long to wait for the watermark and for transactions open at it
     */
    public DatabaseSnapshot(Connection connection, Source source, DebeziumKeys keys, Duration limit) {
        if (keys.tables().isEmpty()) {
            throw new IllegalArgumentException("a snapshot needs at least one table");
        }
        keys.tables().forEach((table, own) -> {
            if (keys.keyFieldsOf(table).isEmpty()) {
                throw new IllegalArgumentException("table " + table + " has no key fields named");
            }
        });
        this.connection = connection;
        this.source = source;
        this.keys = keys;
        this.limit = limit;
    }

    /**
     * Takes the snapshot and writes it to {@code out} (moved into place once complete, so a file there is
     * always a whole snapshot). {@code watermarks} is read for PostgreSQL only.
     */
    public Taken write(Watermarks watermarks, Path out) throws SQLException, IOException {
        Instant at = Instant.now();
        String tables = keys.tables().size() == 1
                ? keys.tables().keySet().iterator().next()
                : keys.tables().size() + "-tables";
        String id = source.name().toLowerCase(java.util.Locale.ROOT) + "-" + tables + "-" + ID_TIME.format(at);
        long scn;
        String point;
        if (source == Source.POSTGRES) {
            DebeziumVersion.Position w = watermark(id, watermarks);
            scn = w.scn() + 1;
            point = "watermark streamed at " + w.scn() + " (the commit before it)";
            openRepeatableRead();
        } else {
            openRepeatableRead();
            String[] binlog = binlogSnapshotPosition();
            scn = DebeziumVersion.ofBinlog(binlog[0], Long.parseLong(binlog[1])).scn();
            point = "binlog " + binlog[0] + ":" + binlog[1];
        }
        Path partial = out.resolveSibling(out.getFileName() + ".partial");
        long rows;
        try (BufferedWriter w = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
            ObjectNode header = JSON.createObjectNode().put("snapshot", id);
            header.putObject("highWatermarks").put("0", scn);
            header.put("point", point);
            w.write(header.toString());
            w.newLine();
            rows = readRows(scn, at.toEpochMilli(), w);
        } finally {
            connection.rollback(); // read only: nothing to commit
            connection.setAutoCommit(true);
        }
        Files.move(partial, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return new Taken(id, scn, point, rows);
    }

    /** Emits the watermark, waits for the connector to stream it, then for the transactions open at it. */
    private DebeziumVersion.Position watermark(String id, Watermarks watermarks) throws SQLException {
        connection.setAutoCommit(true);
        try (PreparedStatement p = connection.prepareStatement("SELECT pg_logical_emit_message(true, ?, ?)")) {
            p.setString(1, WATERMARK_PREFIX);
            p.setString(2, id);
            p.executeQuery().close();
        } catch (SQLException e) {
            throw new IllegalArgumentException(
                    "PostgreSQL refuses the bootstrap's watermark (pg_logical_emit_message): "
                            + e.getMessage().strip()
                            + "; the user needs the REPLICATION attribute, and wal_level=logical");
        }
        DebeziumVersion.Position w = watermarks.await(id, limit);
        waitForOpenTransactions();
        return w;
    }

    /** Waits until no transaction open now is still running: one may have written its commit before the watermark. */
    private void waitForOpenTransactions() throws SQLException {
        List<String> open = new ArrayList<>();
        try (Statement s = connection.createStatement();
                ResultSet r = s.executeQuery("SELECT x::text FROM pg_snapshot_xip(pg_current_snapshot()) x")) {
            while (r.next()) {
                open.add(r.getString(1));
            }
        }
        long deadline = System.nanoTime() + limit.toNanos();
        try (PreparedStatement status = connection.prepareStatement("SELECT pg_xact_status(?::xid8)")) {
            for (String xid : open) {
                while (running(status, xid)) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("transaction " + xid + " was open at the bootstrap's watermark"
                                + " and is still running after " + limit.toSeconds() + " s; the snapshot waits for it "
                                + "(pg_stat_activity.backend_xid names its session)");
                    }
                    pause();
                }
            }
        }
    }

    private static boolean running(PreparedStatement status, String xid) throws SQLException {
        status.setString(1, xid);
        try (ResultSet r = status.executeQuery()) {
            return r.next() && "in progress".equals(r.getString(1));
        }
    }

    private static void pause() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for open transactions", e);
        }
    }

    private void openRepeatableRead() throws SQLException {
        connection.setAutoCommit(false);
        connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        if (source == Source.MYSQL) {
            try (Statement s = connection.createStatement()) {
                s.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
            }
        }
    }

    /** MariaDB's binlog position consistent with the transaction just started: file and position. */
    private String[] binlogSnapshotPosition() throws SQLException {
        Map<String, String> status = new HashMap<>();
        try (Statement s = connection.createStatement();
                ResultSet r = s.executeQuery("SHOW STATUS LIKE 'binlog_snapshot_%'")) {
            while (r.next()) {
                status.put(r.getString(1).toLowerCase(java.util.Locale.ROOT), r.getString(2));
            }
        }
        String file = status.get("binlog_snapshot_file");
        String pos = status.get("binlog_snapshot_position");
        if (file == null || pos == null) {
            throw new IllegalArgumentException("the server has no binlog_snapshot_file/binlog_snapshot_position status:"
                    + " the bootstrap's snapshot point needs MariaDB (MySQL itself is not supported yet)");
        }
        if (file.isEmpty()) {
            throw new IllegalArgumentException(
                    "MariaDB writes no binlog: start it with log_bin (and binlog_format=ROW),"
                            + " which Debezium's connector needs too");
        }
        return new String[] {file, pos};
    }

    /** Every row of every table in the snapshot's transaction, written as UPSERTs at version {@code scn}. */
    private long readRows(long scn, long atMillis, BufferedWriter out) throws SQLException, IOException {
        DebeziumDecoder keyed = new DebeziumDecoder(keys, DebeziumDecoder.AUTO);
        long rows = 0;
        for (String table : keys.tables().keySet()) {
            try (Statement s = connection.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
                // stream the rows instead of loading the table: MySQL's driver streams at MIN_VALUE, PostgreSQL's
                // by fetch size
                s.setFetchSize(source == Source.MYSQL ? Integer.MIN_VALUE : 1000);
                try (ResultSet r = s.executeQuery("SELECT * FROM " + table)) {
                    DebeziumRowImage image = DebeziumRowImage.of(r.getMetaData(), source, table);
                    while (r.next()) {
                        ObjectNode row = image.read(r);
                        ChangeEvent event = ChangeEvent.newBuilder()
                                .setTable(table)
                                .setKey(keyed.cacheKeyOf(table, row))
                                .setPartition(0)
                                .setScn(scn)
                                .setOp(Op.UPSERT)
                                .setSchemaVersion(0)
                                .setPayload(ByteBuffer.wrap(row.toString().getBytes(StandardCharsets.UTF_8)))
                                .setCommitTimeMillis(atMillis)
                                .build();
                        out.write(ChangeEventText.format(event));
                        out.newLine();
                        rows++;
                    }
                }
            }
        }
        return rows;
    }
}
