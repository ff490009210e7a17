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

import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.cache.RowKey;
import io.nearline.common.events.DebeziumKeys;
import io.nearline.common.store.CacheStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cached keys of each table whose rows the database no longer has: what a stream that lost a
 * delete leaves behind, which no read of the table's rows can find. The cache is listed by each
 * table's key prefix a page at a time ({@link CacheStore#scanKeys}), going on from where the last
 * call stopped and starting again after the end, so one call reads at most {@code perTable} keys of a
 * table from the cache and asks the database about as many (0: every key, in pages).
 *
 * <p>A key is looked up by its values as text ({@code CAST(column AS text)}), the form the key was
 * made from: whole numbers, text and UUIDs compare exactly; a key column of another type may not
 * match and its keys are then reported gone, so the caller confirms a gone key before acting on it
 * (the verifier reads it again and repairs it at the version of a consistent read).
 */
public final class CachedKeysSweep {

    private static final int KEYS_PER_STATEMENT = 500;
    private static final int PAGE = 1_000;

    private final SourceDatabase database;
    private final int perTable;
    /** The tables swept; null: all the database's. */
    private final Set<String> only;
    /** Each table's scan cursor; absent: the next call starts at the table's first key. */
    private final Map<String, String> cursors = new HashMap<>();

    /** The keys found gone, by table, and why a table's keys could not be listed (empty where they could). */
    public record Found(Map<String, List<String>> gone, Map<String, String> notSwept) {}

    public CachedKeysSweep(SourceDatabase database, int perTable) {
        this(database, perTable, null);
    }

    /**
     * A sweep of some of {@code database}'s tables ({@code only}, null: all). The keys stay those of the
     * whole database: where it lists several tables, each key names its table, where it lists one, not.
     */
    public CachedKeysSweep(SourceDatabase database, int perTable, Set<String> only) {
        if (perTable < 0) {
            throw new IllegalArgumentException("a sweep takes 0 (every key) or more keys a table, got " + perTable);
        }
        this.database = database;
        this.perTable = perTable;
        this.only = only;
    }

    /**
     * The next keys of every table, less those in {@code covered} (keys the caller already compared),
     * and the keys in {@code recheck} (found gone before, to be confirmed), that are live in {@code
     * cache} and have no row in the database now.
     */
    public Found next(CacheStore cache, Map<String, Set<String>> covered, Map<String, List<String>> recheck)
            throws SQLException {
        Map<String, List<String>> gone = new LinkedHashMap<>();
        Map<String, String> notSwept = new LinkedHashMap<>();
        try (Connection c = database.connect()) {
            DebeziumKeys resolved = database.resolvedKeys(c);
            for (String table : resolved.tables().keySet()) {
                if (only != null && !only.contains(table)) {
                    continue;
                }
                Set<String> keys = new LinkedHashSet<>(recheck.getOrDefault(table, List.of()));
                try {
                    keys.addAll(listed(cache, table, resolved.prefixOf(table)));
                } catch (UnsupportedOperationException e) {
                    notSwept.put(table, e.getMessage());
                }
                Set<String> known = covered.getOrDefault(table, Set.of());
                List<String> asked = new ArrayList<>();
                for (String key : keys) {
                    if (!known.contains(key) && live(cache, key)) {
                        asked.add(key);
                    }
                }
                gone.put(table, absent(c, table, resolved, asked));
            }
        }
        return new Found(gone, notSwept);
    }

    /** Whether {@code key} holds a row in {@code cache} (a tombstone holds none). */
    private static boolean live(CacheStore cache, String key) {
        return cache.get(CacheKey.of(key))
                .map(stored -> !CacheRecordCodec.decode(stored.value()).tombstone())
                .orElse(false);
    }

    /** The next page(s) of {@code table}'s keys: up to {@code perTable}, or all of them. */
    private List<String> listed(CacheStore cache, String table, String prefix) {
        List<String> keys = new ArrayList<>();
        String cursor = cursors.remove(table);
        do {
            int want = perTable == 0 ? PAGE : Math.min(PAGE, perTable - keys.size());
            CacheStore.KeyPage page = cache.scanKeys(prefix, cursor, want);
            page.keys().forEach(k -> keys.add(k.value()));
            cursor = page.next();
        } while (cursor != null && (perTable == 0 || keys.size() < perTable));
        if (cursor != null) {
            cursors.put(table, cursor);
        }
        return keys;
    }

    /** Those of {@code keys} (cache keys of {@code table}) whose row the table does not have. */
    private List<String> absent(Connection c, String table, DebeziumKeys resolved, List<String> keys)
            throws SQLException {
        List<String> fields = resolved.keyFieldsOf(table);
        String prefix = resolved.prefixOf(table);
        Map<List<String>, String> byValues = new LinkedHashMap<>();
        for (String key : keys) {
            List<String> values = RowKey.values(key, prefix);
            if (values.size() == fields.size()) { // a key of another shape is not this table's
                byValues.put(values, key);
            }
        }
        String asText = database.kind().equals("postgres") ? "text" : "char";
        List<String> cast = new ArrayList<>();
        for (String f : fields) {
            cast.add("CAST(" + f + " AS " + asText + ")");
        }
        String one = "(" + String.join(", ", Collections.nCopies(fields.size(), "?")) + ")";
        List<List<String>> all = new ArrayList<>(byValues.keySet());
        for (int from = 0; from < all.size(); from += KEYS_PER_STATEMENT) {
            List<List<String>> part = all.subList(from, Math.min(all.size(), from + KEYS_PER_STATEMENT));
            String sql = "SELECT " + String.join(", ", cast) + " FROM " + table + " WHERE ("
                    + String.join(", ", cast) + ") IN (" + String.join(", ", Collections.nCopies(part.size(), one))
                    + ")";
            try (PreparedStatement p = c.prepareStatement(sql)) {
                int at = 1;
                for (List<String> values : part) {
                    for (String v : values) {
                        p.setString(at++, v);
                    }
                }
                try (ResultSet r = p.executeQuery()) {
                    while (r.next()) {
                        List<String> found = new ArrayList<>(fields.size());
                        for (int i = 1; i <= fields.size(); i++) {
                            found.add(r.getString(i));
                        }
                        byValues.remove(found);
                    }
                }
            }
        }
        return new ArrayList<>(byValues.values());
    }
}
