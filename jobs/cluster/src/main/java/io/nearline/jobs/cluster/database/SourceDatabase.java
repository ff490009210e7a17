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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.nearline.cdcbootstrap.core.CatalogTables;
import io.nearline.common.cache.RowKey;
import io.nearline.common.events.DebeziumKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
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
 * The database a cache mirrors, its source of truth, and the tables of it the cache holds, as a cluster
 * file names them: a section {@code postgres:} or {@code mysql:} (MariaDB too) with {@code jdbc-url},
 * {@code user}, {@code password-file} (optional), {@code tables} (comma-separated, as the connector names
 * them: {@code SCHEMA.TABLE} or {@code DB.TABLE}) and the key rule of the cache updater's
 * {@code cdc.debezium.*} settings without that prefix: {@code key-prefix}, {@code key-fields},
 * {@code table.T.key-fields}, {@code table.T.key-prefix}. A table whose key fields are named nowhere is
 * keyed by its primary key, read from the database's catalog. {@code table:} names a single table, as
 * cluster files before several tables did.
 *
 * <p>The keys of the rows read here are made by this class, apart from the job's decoder, so that a
 * check against the table is also a check of the decoder's key rule (docs/debezium.md#many-tables).
 */
public record SourceDatabase(String kind, String jdbcUrl, String user, String password, DebeziumKeys keys) {

    /** The rows of a table by cache key, with the columns that could be compared and those that could not. */
    public record Rows(Map<String, ObjectNode> byKey, Set<String> compared, Set<String> notCompared) {}

    public SourceDatabase {
        if (keys.tables().isEmpty()) {
            throw new IllegalArgumentException("the '" + kind + ":' section names no table: list them in 'tables' "
                    + "(SCHEMA.TABLE or DB.TABLE, comma-separated; docs/debezium.md#many-tables)");
        }
    }

    /** The {@code kind} section ({@code postgres} or {@code mysql}) of the cluster file in {@code clusterDir}. */
    public static SourceDatabase fromClusterFile(Path clusterDir, String kind) throws IOException {
        Path file = clusterDir.resolve("cluster.yaml");
        Map<String, Object> y =
                new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(file, StandardCharsets.UTF_8));
        Object section = y == null ? null : y.get(kind);
        if (!(section instanceof Map<?, ?> s)) {
            throw new IllegalArgumentException(file + " has no '" + kind + ":' section: add one with jdbc-url, user, "
                    + "password-file and tables (docs/debezium.md#checking-against-the-database)");
        }
        Map<String, String> flat = new LinkedHashMap<>();
        s.forEach((k, v) -> flat.put(String.valueOf(k), v instanceof List<?> l ? join(l) : String.valueOf(v)));
        String passwordFile = flat.getOrDefault("password-file", "");
        String password = passwordFile.isEmpty()
                ? ""
                : Files.readString(Path.of(passwordFile), StandardCharsets.UTF_8)
                        .strip();
        return new SourceDatabase(
                kind,
                required(flat, "jdbc-url", file, kind),
                required(flat, "user", file, kind),
                password,
                keysOf(flat));
    }

    /** {@code tables} of a database, each keyed by its primary key, no prefix. */
    public static SourceDatabase of(String kind, String jdbcUrl, String user, String password, String... tables) {
        Map<String, DebeziumKeys.Table> listed = new LinkedHashMap<>();
        for (String table : tables) {
            listed.put(table, DebeziumKeys.Table.DEFAULT);
        }
        return new SourceDatabase(kind, jdbcUrl, user, password, new DebeziumKeys("", List.of(), listed));
    }

    /**
     * The key rule of a cluster file's database section (its values as text). IllegalArgumentException
     * where two of its tables would share cache keys, as the job refuses them.
     */
    public static DebeziumKeys keysOf(Map<String, String> section) {
        String listed = section.getOrDefault("tables", section.getOrDefault("table", ""));
        Map<String, DebeziumKeys.Table> tables = new LinkedHashMap<>();
        for (String table : fields(listed)) {
            String ownPrefix = section.get("table." + table + ".key-prefix");
            tables.put(
                    table,
                    new DebeziumKeys.Table(
                            fields(section.getOrDefault("table." + table + ".key-fields", "")), ownPrefix));
        }
        DebeziumKeys keys = new DebeziumKeys(
                section.getOrDefault("key-prefix", ""), fields(section.getOrDefault("key-fields", "")), tables);
        keys.sharedKeySpace().ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
        return keys;
    }

    /** The same database with only {@code table}, which it must list. */
    public SourceDatabase only(String table) {
        if (!keys.tables().containsKey(table)) {
            throw new IllegalArgumentException("--table " + table + ": the '" + kind + ":' section lists "
                    + keys.tables().keySet());
        }
        return new SourceDatabase(
                kind,
                jdbcUrl,
                user,
                password,
                new DebeziumKeys(
                        keys.keyPrefix(),
                        keys.keyFields(),
                        Map.of(table, keys.tables().get(table))));
    }

    /** A connection as the user a cluster file's database section names, its password read from its file. */
    public static Connection connect(Map<String, String> section) throws SQLException, IOException {
        String password = Files.readString(Path.of(section.get("password-file")), StandardCharsets.UTF_8)
                .strip();
        return DriverManager.getConnection(section.get("jdbc-url"), section.get("user"), password);
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, user, password);
    }

    /**
     * The key rule with every table's key fields named: its own or the section's, else its primary key
     * from the catalog. IllegalArgumentException where a table is missing, has no primary key, or a key
     * field names no column of it.
     */
    public DebeziumKeys resolvedKeys(Connection c) throws SQLException {
        Map<String, DebeziumKeys.Table> tables = new LinkedHashMap<>();
        for (Map.Entry<String, DebeziumKeys.Table> t : keys.tables().entrySet()) {
            String table = t.getKey();
            List<String> columns = columns(c, table);
            if (columns.isEmpty()) {
                throw new IllegalArgumentException("table " + table + " is not in the " + kind + " database at "
                        + jdbcUrl + " (or " + user + " may not read it): correct 'tables' in the cluster file");
            }
            List<String> fields = keys.keyFieldsOf(table);
            if (fields.isEmpty()) {
                fields = primaryKey(c, table);
                if (fields.isEmpty()) {
                    throw new IllegalArgumentException("table " + table + " has no primary key: name its key "
                            + "columns in 'table." + table + ".key-fields' (the job's cdc.debezium.table."
                            + table + ".key-fields)");
                }
            }
            for (String field : fields) {
                if (!columns.contains(field)) {
                    throw new IllegalArgumentException(
                            "key field '" + field + "' of table " + table + " is not one of its columns " + columns);
                }
            }
            tables.put(table, new DebeziumKeys.Table(fields, t.getValue().keyPrefix()));
        }
        return new DebeziumKeys(keys.keyPrefix(), keys.keyFields(), tables);
    }

    /** The columns of the primary key of {@code table} ({@code SCHEMA.TABLE} or {@code DB.TABLE}), in key order. */
    public static List<String> primaryKey(Connection c, String table) throws SQLException {
        return CatalogTables.primaryKey(c, table);
    }

    private static List<String> columns(Connection c, String table) throws SQLException {
        String[] name = CatalogTables.parts(table);
        List<String> out = new ArrayList<>();
        DatabaseMetaData meta = c.getMetaData();
        try (ResultSet r = CatalogTables.isMysql(c)
                ? meta.getColumns(name[0], null, name[1], null)
                : meta.getColumns(null, name[0], name[1], null)) {
            while (r.next()) {
                out.add(r.getString("COLUMN_NAME"));
            }
        }
        return out;
    }

    /**
     * What was read: every table's rows by cache key, and the key rule they were keyed by.
     *
     * @param keys   every table's key fields named
     * @param tables the rows of each table, in the order listed
     */
    public record Read(DebeziumKeys keys, Map<String, Rows> tables) {

        /**
         * The key rule a change log of these tables is read by: with one table, every change is taken,
         * whatever table it names (or none, as a job without tables listed takes it); with several, a
         * change must name one of them.
         */
        public DebeziumKeys forChangeLog() {
            if (tables.size() != 1) {
                return keys;
            }
            String only = tables.keySet().iterator().next();
            return DebeziumKeys.of(keys.keyFieldsOf(only), keys.prefixOf(only));
        }

        /** The table whose keys start as {@code key} does (the longest such part), or null. */
        public String tableOf(String key) {
            String best = null;
            int longest = -1;
            for (String table : tables.keySet()) {
                String prefix = keys.prefixOf(table);
                if (key.startsWith(prefix) && prefix.length() > longest) {
                    best = table;
                    longest = prefix.length();
                }
            }
            return best;
        }
    }

    /** Every row of every table, keyed as the cache updater keys it, each table read in one statement. */
    public Read read() throws SQLException {
        Map<String, Rows> out = new LinkedHashMap<>();
        try (Connection c = connect()) {
            DebeziumKeys resolved = resolvedKeys(c);
            for (String table : resolved.tables().keySet()) {
                out.put(table, read(c, table, resolved));
            }
            return new Read(resolved, out);
        }
    }

    private Rows read(Connection c, String table, DebeziumKeys resolved) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT * FROM " + table)) {
            return rows(r, table, resolved, null);
        }
    }

    /**
     * The rows of one statement's result, keyed as the cache updater keys them. {@code keyValues}, when
     * given, gets each row's key column values (in key order, as JDBC returns them) under its cache
     * key, in the order the rows came.
     */
    static Rows rows(ResultSet r, String table, DebeziumKeys resolved, Map<String, List<Object>> keyValues)
            throws SQLException {
        Map<String, ObjectNode> byKey = new TreeMap<>();
        Set<String> compared = new LinkedHashSet<>();
        Set<String> notCompared = new LinkedHashSet<>();
        ResultSetMetaData meta = r.getMetaData();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            (comparable(meta.getColumnType(i)) ? compared : notCompared).add(meta.getColumnLabel(i));
        }
        List<String> keyFields = resolved.keyFieldsOf(table);
        while (r.next()) {
            ObjectNode row = JsonNodeFactory.instance.objectNode();
            ObjectNode keyColumns = JsonNodeFactory.instance.objectNode();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                String column = meta.getColumnLabel(i);
                if (compared.contains(column)) {
                    row.set(column, value(r, i, meta.getColumnType(i)));
                }
                if (keyFields.contains(column)) {
                    keyColumns.set(column, value(r, i, meta.getColumnType(i)));
                }
            }
            String key = key(table, keyColumns, resolved);
            byKey.put(key, row);
            if (keyValues != null) {
                List<Object> values = new ArrayList<>();
                for (String field : keyFields) {
                    values.add(r.getObject(field));
                }
                keyValues.put(key, values);
            }
        }
        return new Rows(byKey, compared, notCompared);
    }

    /**
     * The cache key of a row: its column values read here, from JDBC, apart from the job's decoder; the
     * key made of them by the one rule every writer and reader uses ({@link RowKey}).
     */
    static String key(String table, ObjectNode row, DebeziumKeys resolved) {
        List<String> fields = resolved.tables().get(table).keyFields();
        List<String> values = new ArrayList<>(fields.size());
        for (String field : fields) {
            JsonNode v = row.get(field);
            if (v == null || v.isNull()) {
                throw new IllegalArgumentException("table " + table + " has no value in key column '" + field
                        + "' (key fields " + String.join(",", fields) + ")");
            }
            values.add(v.isBigDecimal() ? v.decimalValue().toPlainString() : v.asText());
        }
        return RowKey.of(resolved.prefixOf(table), values);
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

    private static String required(Map<String, String> section, String key, Path file, String kind) {
        String v = section.get(key);
        if (v == null) {
            throw new IllegalArgumentException(
                    file + ": '" + kind + ":' has no '" + key + "' (docs/debezium.md#checking-against-the-database)");
        }
        return v;
    }

    private static List<String> fields(String list) {
        return Arrays.stream(list.split(","))
                .map(String::strip)
                .filter(f -> !f.isEmpty())
                .toList();
    }

    private static String join(List<?> list) {
        return String.join(",", list.stream().map(String::valueOf).toList());
    }

    @Override
    public String toString() {
        // never the password
        Map<String, Object> shown = new LinkedHashMap<>();
        shown.put("jdbc-url", jdbcUrl);
        shown.put("user", user);
        shown.put("tables", String.join(",", keys.tables().keySet()));
        return kind + " " + shown;
    }
}
