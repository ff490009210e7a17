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
package io.nearline.localcluster.cluster;

import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.localcluster.databases.MariadbServer;
import io.nearline.localcluster.databases.PostgresServer;
import io.nearline.localcluster.databases.Processes;
import io.nearline.localcluster.databases.SqlWorkload;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The local cluster's source of truth: PostgreSQL ({@code --postgres}) or MariaDB ({@code --mysql}, read
 * by Debezium's MySQL connector) from Debian's packages, a private instance in {@code DIR/postgres} or
 * {@code DIR/mysql} on the cluster's address, set up for change capture (logical WAL; a row binlog of
 * full images), with the tables the demo writes ({@link SqlWorkload#TABLES}). The user {@code nearline} logs in with a random
 * password kept in a file of the cluster's directory.
 */
public enum ClusterDatabase {
    POSTGRES("postgres", 5432),
    MYSQL("mysql", 3306);

    private final String kind;
    private final int port;

    ClusterDatabase(String kind, int port) {
        this.kind = kind;
        this.port = port;
    }

    public String kind() {
        return kind;
    }

    /** Why this machine cannot run it, or empty. */
    public Optional<String> unavailableReason() {
        Optional<String> why = this == POSTGRES
                ? (PostgresServer.binaries().isPresent()
                        ? Optional.empty()
                        : Optional.of("PostgreSQL is not installed (Debian: apt-get install postgresql)"))
                : (MariadbServer.skipReason().isPresent()
                        ? Optional.of("MariaDB is not installed (Debian: apt-get install mariadb-server)")
                        : Optional.empty());
        return why;
    }

    /**
     * Prepares the instance in {@code DIR/KIND} (once: a second {@code up} in the same directory keeps
     * the data) and returns the command that runs it on {@code host}, carrying the cluster's marker.
     */
    List<String> prepare(Path dir, String host) throws IOException {
        Path home = dir.resolve(kind).toAbsolutePath();
        checkReachable(dir.toAbsolutePath());
        Path passwordFile = home.resolve("password");
        Files.createDirectories(home);
        if (this == POSTGRES) {
            Path data = home.resolve("data");
            if (!Files.exists(data.resolve("PG_VERSION"))) {
                PostgresServer.initialize(home, newPassword(passwordFile));
            }
            // the postmaster keeps its command line: the marker rides in a setting it accepts
            return PostgresServer.serverCommand(data, host, port, List.of("-c", "cluster_name=" + Daemons.marker(dir)));
        }
        if (!Files.exists(home.resolve("data/mysql"))) {
            String password = MariadbServer.initialize(home, "%");
            Files.writeString(passwordFile, password, StandardCharsets.UTF_8);
        }
        // an unknown option prefixed loose- is ignored: it carries the marker
        return MariadbServer.serverCommand(
                home, host, port, List.of("--loose-nearline-cluster=" + Daemons.marker(dir)));
    }

    private void checkReachable(Path dir) throws IOException {
        Optional<Path> closed = Processes.closedToServerUsers(dir);
        if (closed.isPresent()) {
            throw new ClusterException("--" + kind + ": the database runs as its package's user, who cannot enter "
                    + closed.get() + ": 'chmod o+x " + closed.get() + "', or choose a --dir under directories others "
                    + "may enter");
        }
    }

    private static String newPassword(Path file) throws IOException {
        String password = HexFormat.of().formatHex(new SecureRandom().generateSeed(12));
        Files.writeString(file, password, StandardCharsets.UTF_8);
        return password;
    }

    /**
     * The cluster file's section for this database: where it is and the tables a cache mirrors, keyed
     * by their primary keys (read from the catalog where the section names no key fields).
     */
    Map<String, String> section(Path dir, String host) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("host", host);
        s.put("port", "" + port);
        s.put("database", database());
        s.put("user", PostgresServer.USER);
        s.put(
                "password-file",
                dir.resolve(kind).toAbsolutePath().resolve("password").toString());
        s.put("jdbc-url", jdbcUrl(host));
        s.put("tables", String.join(",", tables()));
        s.put("key-prefix", "");
        return s;
    }

    /** The tables the cluster creates, as the connector names them. */
    List<String> tables() {
        String container = this == POSTGRES ? "public" : database();
        return SqlWorkload.TABLES.keySet().stream()
                .map(t -> container + "." + t)
                .toList();
    }

    private String database() {
        return this == POSTGRES ? PostgresServer.DATABASE : MariadbServer.DATABASE;
    }

    private String jdbcUrl(String host) {
        return (this == POSTGRES ? "jdbc:postgresql://" : "jdbc:mysql://") + host + ":" + port + "/" + database();
    }

    /** Whether the database answers, as the cluster's user. */
    static boolean answers(Map<String, String> section) {
        try (Connection c = SourceDatabase.connect(section)) {
            return c.isValid(3);
        } catch (SQLException | IOException e) {
            return false;
        }
    }

    /** Creates the tables the demo writes, those that are not there. */
    void createTables(Map<String, String> section) throws SQLException, IOException {
        try (Connection c = SourceDatabase.connect(section)) {
            SqlWorkload.createTables(c);
        }
    }

    /**
     * PostgreSQL's replication slots with the WAL each holds back ({@code name: 12 MB retained, active});
     * none for MariaDB, whose binlog is kept by its own expiry.
     */
    public List<String> slots(Map<String, String> section) {
        List<String> out = new ArrayList<>();
        if (this != POSTGRES) {
            return out;
        }
        try (Connection c = SourceDatabase.connect(section);
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(
                        "SELECT slot_name, active, "
                                + "pg_size_pretty(pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)) FROM pg_replication_slots")) {
            while (r.next()) {
                out.add(r.getString(1) + ": " + r.getString(3) + " of WAL retained, "
                        + (r.getBoolean(2) ? "active" : "inactive"));
            }
        } catch (SQLException | IOException e) {
            out.add("(cannot read the replication slots: " + e.getMessage() + ")");
        }
        return out;
    }

    /**
     * Drops PostgreSQL's replication slots that no connector holds, so that a stopped cluster's data
     * directory does not keep WAL for a reader that is gone; returns their names.
     */
    public List<String> dropInactiveSlots(Map<String, String> section) {
        List<String> dropped = new ArrayList<>();
        if (this != POSTGRES) {
            return dropped;
        }
        try (Connection c = SourceDatabase.connect(section);
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT slot_name, pg_drop_replication_slot(slot_name) "
                        + "FROM pg_replication_slots WHERE NOT active")) {
            while (r.next()) {
                dropped.add(r.getString(1));
            }
        } catch (SQLException | IOException e) {
            // the database is down already: nothing retains WAL while it is
        }
        return dropped;
    }

    public static ClusterDatabase of(String kind) {
        for (ClusterDatabase d : values()) {
            if (d.kind.equals(kind)) {
                return d;
            }
        }
        throw new IllegalArgumentException("no database kind " + kind);
    }
}
