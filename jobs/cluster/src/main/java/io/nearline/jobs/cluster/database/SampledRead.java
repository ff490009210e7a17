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

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.common.events.DebeziumKeys;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A continuous check's read of the tables a slice at a time: each round, up to {@code perTable} rows
 * of each table in key order, going on from where the last round stopped and from the first row
 * again after the last; plus the rows of keys asked for again (a key that differed last round, read
 * anew whether or not its slice comes round). A round's load on the database is bounded whatever
 * the tables' size, and every row is read once a pass.
 */
public final class SampledRead {

    /** Keys asked for again in one statement at most. */
    private static final int KEYS_PER_STATEMENT = 500;

    private final SourceDatabase database;
    private final int perTable;
    /** Each table's key values of the last row read; absent: the next slice starts at the first row. */
    private final Map<String, List<Object>> after = new HashMap<>();

    /**
     * One round: what was read, the key values of every row read under its cache key (to ask for it
     * again), and the keys asked for again that have no row now.
     */
    public record Round(
            SourceDatabase.Read read, Map<String, List<Object>> keyValues, Map<String, List<String>> gone) {}

    public SampledRead(SourceDatabase database, int perTable) {
        if (perTable < 1) {
            throw new IllegalArgumentException("a sampled read takes at least one row a table, got " + perTable);
        }
        this.database = database;
        this.perTable = perTable;
    }

    /** @param again each table's keys to read again: cache key → its key values */
    public Round next(Map<String, Map<String, List<Object>>> again) throws SQLException {
        try (Connection c = database.connect()) {
            DebeziumKeys resolved = database.resolvedKeys(c);
            Map<String, SourceDatabase.Rows> tables = new LinkedHashMap<>();
            Map<String, List<Object>> keyValues = new HashMap<>();
            Map<String, List<String>> gone = new LinkedHashMap<>();
            for (String table : resolved.tables().keySet()) {
                Map<String, List<Object>> slice = new LinkedHashMap<>();
                SourceDatabase.Rows rows = slice(c, table, resolved, slice);
                Map<String, List<Object>> asked = again.getOrDefault(table, Map.of());
                Map<String, List<Object>> found = new LinkedHashMap<>();
                SourceDatabase.Rows askedRows = readAgain(c, table, resolved, asked.values(), found);
                Map<String, ObjectNode> all = new TreeMap<>(rows.byKey());
                all.putAll(askedRows.byKey());
                tables.put(table, new SourceDatabase.Rows(all, rows.compared(), rows.notCompared()));
                keyValues.putAll(slice);
                keyValues.putAll(found);
                List<String> missing = new ArrayList<>(asked.keySet());
                missing.removeAll(found.keySet());
                gone.put(table, missing);
            }
            return new Round(new SourceDatabase.Read(resolved, tables), keyValues, gone);
        }
    }

    /** The next slice of {@code table} in key order; where the next one starts is kept. */
    private SourceDatabase.Rows slice(
            Connection c, String table, DebeziumKeys resolved, Map<String, List<Object>> slice) throws SQLException {
        List<String> keys = resolved.keyFieldsOf(table);
        List<Object> from = after.get(table);
        String columns = String.join(", ", keys);
        String sql = "SELECT * FROM " + table
                + (from == null ? "" : " WHERE (" + columns + ") > (" + placeholders(keys.size()) + ")")
                + " ORDER BY " + columns + " LIMIT " + perTable;
        try (PreparedStatement p = c.prepareStatement(sql)) {
            if (from != null) {
                bind(p, 1, from);
            }
            try (ResultSet r = p.executeQuery()) {
                SourceDatabase.Rows rows = SourceDatabase.rows(r, table, resolved, slice);
                if (slice.size() < perTable) {
                    after.remove(table); // the end of the table: the next slice starts again at the first row
                } else {
                    after.put(table, new ArrayList<>(slice.values()).get(slice.size() - 1));
                }
                return rows;
            }
        }
    }

    private static SourceDatabase.Rows readAgain(
            Connection c,
            String table,
            DebeziumKeys resolved,
            Collection<List<Object>> keys,
            Map<String, List<Object>> found)
            throws SQLException {
        Map<String, ObjectNode> rows = new TreeMap<>();
        SourceDatabase.Rows last = new SourceDatabase.Rows(Map.of(), Set.of(), Set.of());
        List<List<Object>> all = new ArrayList<>(keys);
        List<String> fields = resolved.keyFieldsOf(table);
        String one = "(" + placeholders(fields.size()) + ")";
        for (int from = 0; from < all.size(); from += KEYS_PER_STATEMENT) {
            List<List<Object>> part = all.subList(from, Math.min(all.size(), from + KEYS_PER_STATEMENT));
            String sql = "SELECT * FROM " + table + " WHERE (" + String.join(", ", fields) + ") IN ("
                    + String.join(", ", Collections.nCopies(part.size(), one)) + ")";
            try (PreparedStatement p = c.prepareStatement(sql)) {
                int at = 1;
                for (List<Object> key : part) {
                    at = bind(p, at, key);
                }
                try (ResultSet r = p.executeQuery()) {
                    last = SourceDatabase.rows(r, table, resolved, found);
                    rows.putAll(last.byKey());
                }
            }
        }
        return new SourceDatabase.Rows(rows, last.compared(), last.notCompared());
    }

    private static int bind(PreparedStatement p, int at, List<Object> values) throws SQLException {
        for (Object v : values) {
            p.setObject(at++, v);
        }
        return at;
    }

    private static String placeholders(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }
}
