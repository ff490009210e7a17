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

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether a database is set up for Debezium's connector to capture it, asked before a connector is
 * deployed: the first setting or privilege that is missing, named with its fix, so that the deploy
 * ends in one line instead of a connector task failing later with a stack trace.
 *
 * <ul>
 *   <li>PostgreSQL: {@code wal_level=logical}; the user may replicate ({@code REPLICATION}, or a superuser).
 *   <li>MySQL/MariaDB: the binlog on, {@code binlog_format=ROW}, {@code binlog_row_image=FULL}; the user
 *       holds {@code REPLICATION SLAVE} (reading the binlog) and {@code REPLICATION CLIENT} (MariaDB 10.5+
 *       calls it {@code BINLOG MONITOR}), or all privileges.
 * </ul>
 */
public final class CaptureReadiness {

    private CaptureReadiness() {}

    /** What keeps Debezium's connector from capturing the database {@code kind} ({@code postgres} or {@code mysql}); empty when nothing does. */
    public static Optional<String> problem(String kind, Connection c) throws SQLException {
        return kind.equals("postgres") ? postgres(c) : mysql(c);
    }

    private static Optional<String> postgres(Connection c) throws SQLException {
        String walLevel = single(c, "SHOW wal_level");
        if (!walLevel.equals("logical")) {
            return Optional.of("PostgreSQL runs with wal_level=" + walLevel + "; Debezium's connector needs "
                    + "wal_level=logical (postgresql.conf or ALTER SYSTEM, then a restart)");
        }
        String user = single(c, "SELECT current_user");
        if (!single(c, "SELECT (rolreplication OR rolsuper)::text FROM pg_roles WHERE rolname = current_user")
                .equals("true")) {
            return Optional.of("PostgreSQL user " + user + " may not replicate; Debezium's connector needs it: "
                    + "ALTER ROLE " + user + " REPLICATION");
        }
        return Optional.empty();
    }

    private static Optional<String> mysql(Connection c) throws SQLException {
        if (!single(c, "SELECT @@log_bin").equals("1")) {
            return Optional.of("the server writes no binlog; Debezium's connector reads it: start it with log_bin "
                    + "(and binlog_format=ROW, binlog_row_image=FULL)");
        }
        String format = single(c, "SELECT @@binlog_format");
        if (!format.equalsIgnoreCase("ROW")) {
            return Optional.of("the server runs with binlog_format=" + format + "; Debezium's connector needs "
                    + "binlog_format=ROW (SET GLOBAL binlog_format=ROW, and in the server's config)");
        }
        String image = single(c, "SELECT @@binlog_row_image");
        if (!image.equalsIgnoreCase("FULL")) {
            return Optional.of("the server runs with binlog_row_image=" + image + "; Debezium's connector needs "
                    + "binlog_row_image=FULL (SET GLOBAL binlog_row_image=FULL, and in the server's config)");
        }
        String grants = String.join(" ", grants(c)).toUpperCase(Locale.ROOT);
        if (grants.contains("ALL PRIVILEGES ON *.*")) {
            return Optional.empty();
        }
        if (!grants.contains("REPLICATION SLAVE") && !grants.contains("REPLICATION REPLICA")) {
            return Optional.of("the user lacks REPLICATION SLAVE, which reading the binlog needs: GRANT REPLICATION "
                    + "SLAVE ON *.* TO the connector's user");
        }
        if (!grants.contains("REPLICATION CLIENT") && !grants.contains("BINLOG MONITOR")) {
            return Optional.of("the user lacks REPLICATION CLIENT (MariaDB 10.5+: BINLOG MONITOR), which Debezium's "
                    + "connector needs to find the binlog position: GRANT it ON *.* TO the connector's user");
        }
        return Optional.empty();
    }

    private static List<String> grants(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SHOW GRANTS")) {
            while (r.next()) {
                out.add(r.getString(1));
            }
        }
        return out;
    }

    private static String single(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            return r.next() && r.getString(1) != null ? r.getString(1) : "";
        }
    }
}
