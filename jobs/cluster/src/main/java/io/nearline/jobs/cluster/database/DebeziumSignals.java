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
package io.nearline.jobs.cluster.database;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;

/**
 * Debezium's signalling table: a table the connector captures, whose inserted rows are requests to it
 * ({@code execute-snapshot} asks for an incremental snapshot; the connector also writes its window
 * watermarks there). The deploy creates it and points the connector at it; {@code resync} writes to it.
 */
public final class DebeziumSignals {

    /** The table's name in the database's default schema (PostgreSQL's public, MariaDB's own database). */
    public static final String TABLE = "debezium_signal";

    private static final ObjectMapper JSON = new ObjectMapper();

    private DebeziumSignals() {}

    /** Whether a Debezium connector's config takes signals through its signalling table. */
    public static boolean takenBy(Map<String, String> config) {
        return java.util.List.of(
                        config.getOrDefault("signal.enabled.channels", "").split(","))
                .contains("source");
    }

    /**
     * {@code config} pointed at the signalling table {@code qualified} where it takes signals: the table
     * named, and captured beside the others (the connector reads signals from its change stream).
     */
    public static void pointAt(Map<String, String> config, String qualified) {
        if (takenBy(config)) {
            String signals = config.computeIfAbsent("signal.data.collection", k -> qualified);
            config.put("table.include.list", config.get("table.include.list") + "," + signals);
        }
    }

    /** The table as the connector names it, for the cluster file's {@code kind} section {@code db}. */
    public static String qualified(String kind, Map<String, String> db) {
        return (kind.equals("postgres") ? "public" : db.get("database")) + "." + TABLE;
    }

    /** Creates {@code table} where it is missing; empty, or why it could not (with the statement to run). */
    public static Optional<String> create(Connection c, String table) {
        String ddl = "CREATE TABLE IF NOT EXISTS " + table
                + " (id VARCHAR(42) PRIMARY KEY, type VARCHAR(32) NOT NULL, data VARCHAR(2048))";
        try (Statement s = c.createStatement()) {
            s.execute(ddl);
            return Optional.empty();
        } catch (SQLException e) {
            return Optional.of("cannot create Debezium's signalling table ("
                    + e.getMessage().lines().findFirst().orElse("") + "): run '" + ddl
                    + "' as its owner, and grant the connector's user INSERT on it");
        }
    }

    /**
     * Asks for an incremental snapshot of {@code dataCollection} (as the connector names it), of the rows
     * {@code where} selects (null: all), under the request's {@code id}.
     */
    public static void requestSnapshot(Connection c, String signalTable, String id, String dataCollection, String where)
            throws SQLException {
        ObjectNode data = JSON.createObjectNode();
        data.putArray("data-collections").add(dataCollection);
        data.put("type", "incremental");
        if (where != null) {
            data.putArray("additional-conditions")
                    .addObject()
                    .put("data-collection", dataCollection)
                    .put("filter", where);
        }
        try (PreparedStatement p =
                c.prepareStatement("INSERT INTO " + signalTable + " (id, type, data) VALUES (?, ?, ?)")) {
            p.setString(1, id);
            p.setString(2, "execute-snapshot");
            p.setString(3, data.toString());
            p.executeUpdate();
        }
    }
}
