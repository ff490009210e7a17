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
package io.nearline.jobs.client;

import io.nearline.cdcbootstrap.core.CatalogTables;
import io.nearline.cdcbootstrap.core.DatabaseSnapshot;
import io.nearline.cdcbootstrap.core.DebeziumRowImage;
import io.nearline.common.events.DebeziumKeys;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Rows of PostgreSQL or MySQL/MariaDB read by their key, rendered as Debezium's connector renders them
 * (the image the bootstrap writes too), over one connection kept open and opened again after a failure.
 * A table's key columns are the job's {@code key-fields} where set, else the table's primary key.
 * Thread-safe: reads take turns on the connection.
 */
public final class JdbcRowSource implements RowSource, AutoCloseable {

    /** Opens a connection: {@code DriverManager.getConnection(url, user, password)}, or a pool's. */
    @FunctionalInterface
    public interface Connections {
        Connection open() throws SQLException;
    }

    private final DatabaseSnapshot.Source kind;
    private final Connections connections;
    private final DebeziumKeys keys;
    private final Map<String, List<String>> keyColumns = new ConcurrentHashMap<>();
    private Connection connection;

    /**
     * @param kind {@code postgres} or {@code mysql} (MariaDB too)
     * @param keys the job's keys ({@code cdc.debezium.*}): which columns key each table
     */
    public JdbcRowSource(String kind, Connections connections, DebeziumKeys keys) {
        this.kind = DatabaseSnapshot.Source.of(kind);
        this.connections = connections;
        this.keys = keys;
    }

    @Override
    public synchronized Optional<byte[]> read(String table, List<String> keyValues) throws SQLException {
        try {
            return readOnce(table, keyValues);
        } catch (SQLException first) {
            close(); // a connection the server dropped: once more on a new one
            return readOnce(table, keyValues);
        }
    }

    private Optional<byte[]> readOnce(String table, List<String> keyValues) throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = connections.open();
            connection.setAutoCommit(true);
        }
        List<String> columns = keyColumns.computeIfAbsent(table, this::keyColumnsOf);
        if (columns.size() != keyValues.size()) {
            throw new IllegalArgumentException(table + " is keyed by " + columns + ": give " + columns.size()
                    + " key values, not " + keyValues.size());
        }
        List<String> where = new ArrayList<>();
        for (String c : columns) {
            where.add(c + " = ?");
        }
        try (PreparedStatement s =
                connection.prepareStatement("SELECT * FROM " + table + " WHERE " + String.join(" AND ", where))) {
            for (int i = 0; i < keyValues.size(); i++) {
                if (kind == DatabaseSnapshot.Source.POSTGRES) {
                    s.setObject(i + 1, keyValues.get(i), Types.OTHER); // the server takes the column's type
                } else {
                    s.setString(i + 1, keyValues.get(i));
                }
            }
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return Optional.empty();
                }
                DebeziumRowImage image = DebeziumRowImage.of(r.getMetaData(), kind, table);
                return Optional.of(image.read(r).toString().getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    private List<String> keyColumnsOf(String table) {
        List<String> named = keys.keyFieldsOf(table);
        if (!named.isEmpty()) {
            return named;
        }
        List<String> primaryKey;
        try {
            primaryKey = CatalogTables.primaryKey(connection, table);
        } catch (SQLException e) {
            throw new IllegalStateException("reading the primary key of " + table + ": " + e.getMessage(), e);
        }
        if (primaryKey.isEmpty()) {
            throw new IllegalArgumentException(
                    table + " has no primary key: name its key columns in cdc.debezium.table." + table + ".key-fields");
        }
        return primaryKey;
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // closing a broken connection: nothing left to do
            }
            connection = null;
        }
    }
}
