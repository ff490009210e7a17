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
package io.nearline.jobs.checker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.version.Version;
import io.nearline.jobs.checker.DivergenceChecker.Divergence;
import io.nearline.jobs.checker.DivergenceChecker.Kind;
import io.nearline.jobs.checker.DivergenceChecker.Report;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Compares a cache with a database table, the source of truth itself rather than its change log. A
 * table has no versions, so the comparison is by content: a row the table has must be cached with the
 * same value in every compared column (the cached payload is the row as Debezium captured it, JSON); a
 * key the table does not have (a deleted row: the caller names those it knows, from the change log)
 * must be absent or a tombstone in the cache.
 */
public final class TableCheck {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One table of several checked against one cache.
     *
     * @param rows      the table, by cache key: column name to value
     * @param columns   the columns compared
     * @param alsoCheck keys of this table to look at besides its rows (keys a change log deleted)
     */
    public record Table(Map<CacheKey, ? extends JsonNode> rows, Set<String> columns, Collection<CacheKey> alsoCheck) {}

    /** Each table's report, in the order given, and all of them as one. */
    public record Tables(Map<String, Report> byTable, Report total) {

        /** One line per table: its name and its report's summary. */
        public String perTable() {
            StringBuilder out = new StringBuilder();
            byTable.forEach((name, r) -> out.append(out.length() == 0 ? "" : "\n")
                    .append(String.format(
                            "  %-24s %s %s", name, r.converged() ? "OK      " : "DIVERGED", r.summary())));
            return out.toString();
        }
    }

    private TableCheck() {}

    /** Every table of {@code tables} (by name, in order) against {@code cache}. */
    public static Tables check(Map<String, Table> tables, CacheView cache) {
        Map<String, Report> byTable = new LinkedHashMap<>();
        long keys = 0;
        List<Divergence> divergent = new ArrayList<>();
        for (Map.Entry<String, Table> t : tables.entrySet()) {
            Table table = t.getValue();
            Report r = check(table.rows(), table.columns(), table.alsoCheck(), cache);
            byTable.put(t.getKey(), r);
            keys += r.keysChecked();
            divergent.addAll(r.divergent());
        }
        return new Tables(byTable, new Report(keys, divergent, new long[0], new long[0]));
    }

    /**
     * @param rows      the table, by cache key: column name to value
     * @param columns   the columns compared (those whose values read alike from JDBC and Debezium's JSON)
     * @param alsoCheck keys to look at besides the table's (keys the change log deleted)
     */
    public static Report check(
            Map<CacheKey, ? extends JsonNode> rows,
            Set<String> columns,
            Collection<CacheKey> alsoCheck,
            CacheView cache) {
        TreeSet<CacheKey> keys = new TreeSet<>(rows.keySet());
        keys.addAll(alsoCheck);
        List<Divergence> divergent = new ArrayList<>();
        for (CacheKey key : keys) {
            Optional<CacheRecord> cached = cache.get(key);
            Kind kind = classify(rows.get(key), cached.orElse(null), columns);
            if (kind != null) {
                divergent.add(new Divergence(
                        key,
                        kind,
                        Version.NONE,
                        cached.map(CacheRecord::version).orElse(Version.NONE)));
            }
        }
        return new Report(keys.size(), divergent, new long[0], new long[0]);
    }

    /** Null when the cache agrees with the table for this key. */
    static Kind classify(JsonNode row, CacheRecord cached, Set<String> columns) {
        boolean live = cached != null && !cached.tombstone();
        if (row == null) {
            return live ? Kind.RESURRECTED : null;
        }
        if (!live) {
            return Kind.MISSING;
        }
        JsonNode image = image(cached.payload());
        for (String column : columns) {
            if (!sameValue(row.get(column), image == null ? null : image.get(column))) {
                return Kind.DIFFERENT;
            }
        }
        return null;
    }

    /** Equal JSON values, numbers by value ({@code 12.5} is {@code 12.50}; {@code 7} is {@code 7.0}). */
    static boolean sameValue(JsonNode a, JsonNode b) {
        boolean aNull = a == null || a.isNull();
        boolean bNull = b == null || b.isNull();
        if (aNull || bNull) {
            return aNull && bNull;
        }
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        return a.equals(b);
    }

    private static JsonNode image(byte[] payload) {
        try {
            JsonNode node = JSON.readTree(new String(payload, StandardCharsets.UTF_8));
            return node != null && node.isObject() ? node : null;
        } catch (IOException notJson) {
            return null;
        }
    }
}
