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

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A captured table as the database's catalog knows it, named as the connector names it: {@code SCHEMA.TABLE}
 * on PostgreSQL, {@code DB.TABLE} on MySQL and MariaDB (where the JDBC catalog holds the database).
 */
public final class CatalogTables {

    private CatalogTables() {}

    /** {@code SCHEMA.TABLE} (or {@code DB.TABLE}) as its two parts. */
    public static String[] parts(String table) {
        int dot = table.indexOf('.');
        if (dot <= 0 || dot == table.length() - 1) {
            throw new IllegalArgumentException(
                    "table '" + table + "' must be named SCHEMA.TABLE (PostgreSQL) or DB.TABLE (MariaDB), as the "
                            + "connector names it");
        }
        return new String[] {table.substring(0, dot), table.substring(dot + 1)};
    }

    /** Whether {@code c} is MySQL or MariaDB (the name's first part is then the JDBC catalog, not the schema). */
    public static boolean isMysql(Connection c) throws SQLException {
        return !c.getMetaData()
                .getDatabaseProductName()
                .toLowerCase(Locale.ROOT)
                .contains("postgres");
    }

    /** The columns of the primary key of {@code table}, in key order; empty where it has none. */
    public static List<String> primaryKey(Connection c, String table) throws SQLException {
        String[] name = parts(table);
        Map<Integer, String> bySeq = new TreeMap<>();
        DatabaseMetaData meta = c.getMetaData();
        try (ResultSet r = isMysql(c)
                ? meta.getPrimaryKeys(name[0], null, name[1])
                : meta.getPrimaryKeys(null, name[0], name[1])) {
            while (r.next()) {
                bySeq.put(r.getInt("KEY_SEQ"), r.getString("COLUMN_NAME"));
            }
        }
        return List.copyOf(bySeq.values());
    }
}
