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
package io.nearline.localcluster.databases;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The table a cache mirrors, in the database that is its source of truth, as a cluster file names it:
 * a section {@code postgres:} or {@code mysql:} (MariaDB too) with {@code jdbc-url}, {@code user},
 * {@code password-file} (optional), {@code table}, {@code key-fields} (default {@code id}, comma
 * separated) and {@code key-prefix} (default empty), the key rule of the cache updater's
 * {@code cdc.debezium.*} settings.
 */
public record SourceTable(
        String kind,
        String jdbcUrl,
        String user,
        String password,
        String table,
        List<String> keyFields,
        String keyPrefix) {

    /** The rows of the table by cache key, with the columns that could be compared and those that could not. */
    public record Rows(Map<String, ObjectNode> byKey, Set<String> compared, Set<String> notCompared) {}

    /** The {@code kind} section ({@code postgres} or {@code mysql}) of the cluster file in {@code clusterDir}. */
    public static SourceTable fromClusterFile(Path clusterDir, String kind) throws IOException {
        Path file = clusterDir.resolve("cluster.yaml");
        Map<String, Object> y =
                new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(file, StandardCharsets.UTF_8));
        Object section = y == null ? null : y.get(kind);
        if (!(section instanceof Map<?, ?> s)) {
            throw new IllegalArgumentException(file + " has no '" + kind + ":' section: add one with jdbc-url, user, "
                    + "password-file and table (docs/debezium.md#checking-against-the-database)");
        }
        String url = text(s, "jdbc-url", null, file, kind);
        String passwordFile = text(s, "password-file", "", file, kind);
        String password = passwordFile.isEmpty()
                ? ""
                : Files.readString(Path.of(passwordFile), StandardCharsets.UTF_8)
                        .strip();
        return new SourceTable(
                kind,
                url,
                text(s, "user", null, file, kind),
                password,
                text(s, "table", null, file, kind),
                Arrays.stream(text(s, "key-fields", "id", file, kind).split(","))
                        .map(String::strip)
                        .filter(f -> !f.isEmpty())
                        .toList(),
                text(s, "key-prefix", "", file, kind));
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, user, password);
    }

    /** Every row of the table, keyed as the cache updater keys it, read in one statement. */
    public Rows read() throws SQLException {
        Map<String, ObjectNode> byKey = new TreeMap<>();
        Set<String> compared = new LinkedHashSet<>();
        Set<String> notCompared = new LinkedHashSet<>();
        try (Connection c = connect();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT * FROM " + table)) {
            ResultSetMetaData meta = r.getMetaData();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                (comparable(meta.getColumnType(i)) ? compared : notCompared).add(meta.getColumnLabel(i));
            }
            while (r.next()) {
                ObjectNode row = JsonNodeFactory.instance.objectNode();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    if (compared.contains(meta.getColumnLabel(i))) {
                        row.set(meta.getColumnLabel(i), value(r, i, meta.getColumnType(i)));
                    }
                }
                byKey.put(key(row), row);
            }
        }
        return new Rows(byKey, compared, notCompared);
    }

    /** The cache key of a row: the prefix, then the key fields' values joined by ':'. */
    private String key(ObjectNode row) {
        StringBuilder out = new StringBuilder(keyPrefix);
        for (int i = 0; i < keyFields.size(); i++) {
            JsonNode v = row.get(keyFields.get(i));
            if (v == null || v.isNull()) {
                throw new IllegalArgumentException("table " + table + " has no value in key column '" + keyFields.get(i)
                        + "' (key-fields = " + String.join(",", keyFields) + ")");
            }
            out.append(i == 0 ? "" : ":")
                    .append(v.isBigDecimal() ? v.decimalValue().toPlainString() : v.asText());
        }
        return out.toString();
    }

    /** Types whose JDBC value reads as Debezium's JSON writes it (numbers, text, booleans). */
    private static boolean comparable(int sqlType) {
        return switch (sqlType) {
            case Types.TINYINT,
                    Types.SMALLINT,
                    Types.INTEGER,
                    Types.BIGINT,
                    Types.NUMERIC,
                    Types.DECIMAL,
                    Types.REAL,
                    Types.FLOAT,
                    Types.DOUBLE,
                    Types.CHAR,
                    Types.VARCHAR,
                    Types.LONGVARCHAR,
                    Types.NCHAR,
                    Types.NVARCHAR,
                    Types.LONGNVARCHAR,
                    Types.BOOLEAN -> true;
            default -> false;
        };
    }

    private static JsonNode value(ResultSet r, int i, int sqlType) throws SQLException {
        if (r.getObject(i) == null) {
            return NullNode.getInstance();
        }
        return switch (sqlType) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> LongNode.valueOf(r.getLong(i));
            case Types.NUMERIC, Types.DECIMAL -> DecimalNode.valueOf(r.getBigDecimal(i));
            case Types.REAL, Types.FLOAT, Types.DOUBLE -> DoubleNode.valueOf(r.getDouble(i));
            case Types.BOOLEAN -> BooleanNode.valueOf(r.getBoolean(i));
            default -> TextNode.valueOf(r.getString(i));
        };
    }

    private static String text(Map<?, ?> section, String key, String missing, Path file, String kind) {
        Object v = section.get(key);
        if (v == null) {
            if (missing == null) {
                throw new IllegalArgumentException(file + ": '" + kind + ":' has no '" + key
                        + "' (docs/debezium.md#checking-against-the-database)");
            }
            return missing;
        }
        return String.valueOf(v);
    }

    @Override
    public String toString() {
        // never the password
        Map<String, Object> shown = new LinkedHashMap<>();
        shown.put("jdbc-url", jdbcUrl);
        shown.put("user", user);
        shown.put("table", table);
        return kind + " " + shown;
    }
}
