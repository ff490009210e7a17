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

import io.nearline.cdcbootstrap.core.DatabaseSnapshot;
import io.nearline.common.events.DebeziumVersion;
import io.nearline.jobs.cluster.database.SourceDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * MariaDB 10.11 (row-based binlog) captured by Debezium's MySQL connector, which reads MariaDB once the
 * server announces a MySQL-5-style version ({@link MariadbServer}). The binlog is written in commit
 * order, so the binlog position orders the scripted race right too.
 */
class MariadbCaptureIT extends CaptureContract {

    private MariadbServer server;

    @Override
    Optional<String> skipReason() {
        return MariadbServer.skipReason();
    }

    @Override
    void startServer(Path dir) throws Exception {
        server = MariadbServer.start(dir.resolve("mariadb"));
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id int PRIMARY KEY, v varchar(100) NOT NULL) ENGINE=InnoDB");
        }
    }

    @Override
    DatabaseSnapshot.Source source() {
        return DatabaseSnapshot.Source.MYSQL;
    }

    @Override
    long logPositionNow(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SHOW MASTER STATUS")) {
            r.next();
            return DebeziumVersion.ofBinlog(r.getString(1), r.getLong(2)).scn();
        }
    }

    @Override
    List<String> typedTable() {
        return List.of(
                "CREATE TABLE typed (id bigint PRIMARY KEY, name varchar(200), qty int, small smallint, "
                        + "price decimal(12,2), ratio float, score double, note text, born date, "
                        + "updated_at datetime(6), at_millis datetime(3), zoned timestamp(6) NULL) ENGINE=InnoDB",
                "INSERT INTO typed VALUES (1, 'one', 3, 7, 12.50, 0.1, 2.5e-3, 'first', '1990-01-31', "
                        + "'2026-11-26 18:42:34.123456', '2026-11-26 18:42:34.125', '2026-11-26 18:42:34.5')",
                "INSERT INTO typed VALUES (2, 'two', -1, 0, 0.00, 1.5, -1e10, '', '2030-12-31', "
                        + "'1970-01-01 00:00:00.000001', '2000-01-01 00:00:00', '2026-01-01 00:00:00')",
                "INSERT INTO typed (id) VALUES (3)");
    }

    @Override
    void close() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    SourceDatabase sourceTable() {
        return SourceDatabase.of(
                "mysql", server.jdbcUrl(), MariadbServer.USER, server.password(), MariadbServer.DATABASE + ".items");
    }

    @Override
    Connection connect() throws SQLException {
        return DriverManager.getConnection(server.jdbcUrl(), MariadbServer.USER, server.password());
    }

    @Override
    String upsert(int k, String quotedValue) {
        return "INSERT INTO items VALUES (" + k + ", " + quotedValue + ") ON DUPLICATE KEY UPDATE v = VALUES(v)";
    }

    @Override
    boolean waitingOnALock(Connection watcher) throws SQLException {
        try (Statement s = watcher.createStatement();
                ResultSet r = s.executeQuery(
                        "SELECT count(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'")) {
            r.next();
            return r.getInt(1) > 0;
        }
    }

    @Override
    Properties connectorProperties() {
        Properties p = engineProperties(
                "io.debezium.connector.mysql.MySqlConnector", server.port(), MariadbServer.USER, server.password());
        p.setProperty("database.server.id", "5400");
        p.setProperty("database.include.list", MariadbServer.DATABASE);
        p.setProperty(
                "table.include.list",
                String.join(",", qualified("items"), qualified("typed"), qualified("tags"), qualified("links")));
        p.setProperty("schema.history.internal", "io.debezium.storage.file.history.FileSchemaHistory");
        p.setProperty(
                "schema.history.internal.file.filename",
                dir.resolve("schema-history.dat").toString());
        return p;
    }
}
