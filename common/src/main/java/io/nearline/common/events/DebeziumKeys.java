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
package io.nearline.common.events;

import io.nearline.common.cache.RowKey;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How the changes of the tables one connector captures become cache keys (docs/debezium.md#many-tables).
 *
 * <p>A table is named as the connector writes it: {@code SCHEMA.TABLE} where the source block has a
 * schema (PostgreSQL, Oracle, SQL Server), {@code DB.TABLE} where it has none (MySQL, MariaDB). A key
 * is {@code keyPrefix}, then the table's part, then the key fields' values ({@link RowKey#of}: joined by
 * {@code :}, a value holding {@code :} escaped, so two rows never share a key). The table's part is its
 * own prefix where one is set; else, where several tables are listed, the table's name and {@code :}
 * ({@link RowKey#tablePart}), so that tables whose rows share ids never share a key; else nothing (one
 * table keeps the keys it always had). Tables whose parts would let their keys meet are refused
 * ({@link #sharedKeySpace}).
 *
 * <p>A table's key fields are its own where set, else {@code keyFields} where set, else the fields of
 * the record key, in their order: Debezium writes the table's primary key there.
 *
 * @param keyPrefix before every key ({@code cdc.debezium.key-prefix})
 * @param keyFields for every table without its own; empty: the record key's ({@code cdc.debezium.key-fields})
 * @param tables    the tables taken, by name, in the order listed; empty: every change, whatever its table
 */
public record DebeziumKeys(String keyPrefix, List<String> keyFields, Map<String, Table> tables)
        implements Serializable {

    /**
     * One table's own key rule.
     *
     * @param keyFields empty: the job's ({@code cdc.debezium.table.T.key-fields})
     * @param keyPrefix null: the default part ({@code cdc.debezium.table.T.key-prefix})
     */
    public record Table(List<String> keyFields, String keyPrefix) implements Serializable {

        public static final Table DEFAULT = new Table(List.of(), null);

        public Table {
            keyFields = List.copyOf(keyFields);
        }
    }

    private static final long serialVersionUID = 1L;

    public DebeziumKeys {
        keyFields = List.copyOf(keyFields);
        tables = new LinkedHashMap<>(tables);
    }

    /** One rule for every change, whatever its table: the keys a job without tables listed has always had. */
    public static DebeziumKeys of(List<String> keyFields, String keyPrefix) {
        return new DebeziumKeys(keyPrefix, keyFields, Map.of());
    }

    /** Whether changes of several tables share the cache, so that a key names its table. */
    public boolean several() {
        return tables.size() > 1;
    }

    /** Whether a change of {@code table} is taken: every table when none is listed. */
    public boolean takes(String table) {
        return tables.isEmpty() || tables.containsKey(table);
    }

    /** The key fields of {@code table}; empty: the record key's own. */
    public List<String> keyFieldsOf(String table) {
        List<String> own = tables.getOrDefault(table, Table.DEFAULT).keyFields();
        return own.isEmpty() ? keyFields : own;
    }

    /** What goes before the key values of a row of {@code table}. */
    public String prefixOf(String table) {
        String own = tables.getOrDefault(table, Table.DEFAULT).keyPrefix();
        if (own != null) {
            return keyPrefix + own;
        }
        return several() ? keyPrefix + RowKey.tablePart(table) : keyPrefix;
    }

    /**
     * Two listed tables whose keys could meet, as the problem to tell: the same prefix, or one prefix the
     * start of another's ({@code a:} and {@code a:b:}: the row {@code (b, c)} of the first and {@code (c)}
     * of the second would both be {@code a:b:c}); empty where every table has a key space of its own.
     */
    public Optional<String> sharedKeySpace() {
        List<String> names = List.copyOf(tables.keySet());
        for (int i = 0; i < names.size(); i++) {
            for (int j = 0; j < names.size(); j++) {
                String a = prefixOf(names.get(i));
                String b = prefixOf(names.get(j));
                if (i != j && b.startsWith(a) && (a.length() < b.length() || i < j)) {
                    return Optional.of(
                            "tables " + names.get(i) + " and " + names.get(j) + " would share cache keys ("
                                    + (a.equals(b) ? "both prefixed '" + a + "'" : "'" + a + "' starts '" + b + "'")
                                    + "): give each its own 'cdc.debezium.table.<table>.key-prefix', none the start of another's.");
                }
            }
        }
        return Optional.empty();
    }

    /** What names a change's table in the settings: why an unlisted one is refused. */
    String listed() {
        return String.join(",", tables.keySet());
    }
}
