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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nearline.jobs.cluster.database.CaptureReadiness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deploy's question before a Debezium connector goes to Connect, asked of real servers: a database
 * set up for capture passes, and each missing setting or privilege is named with its fix.
 */
class CaptureReadinessIT {

    @TempDir
    Path dir;

    @Test
    void postgresNeedsLogicalWalAndAUserWhoMayReplicate() throws Exception {
        assumeTrue(PostgresServer.skipReason().isEmpty(), () -> PostgresServer.skipReason()
                .orElse(""));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        try (PostgresServer ready = PostgresServer.start(dir.resolve("ready"));
                Connection c = ready.connect()) {
            assertEquals(Optional.empty(), CaptureReadiness.problem("postgres", c));
            try (Statement s = c.createStatement()) {
                s.execute("CREATE ROLE reader LOGIN");
            }
            try (Connection reader = DriverManager.getConnection(ready.jdbcUrl(), "reader", "")) {
                Optional<String> problem = CaptureReadiness.problem("postgres", reader);
                assertTrue(problem.orElse("").contains("ALTER ROLE reader REPLICATION"), problem.toString());
            }
        }
        try (PostgresServer replica = PostgresServer.start(dir.resolve("replica"), List.of("-c", "wal_level=replica"));
                Connection c = replica.connect()) {
            Optional<String> problem = CaptureReadiness.problem("postgres", c);
            assertTrue(problem.orElse("").contains("wal_level=replica"), problem.toString());
        }
    }

    @Test
    void mariadbNeedsARowBinlogOfFullImagesAndReplicationGrants() throws Exception {
        assumeTrue(MariadbServer.skipReason().isEmpty(), () -> MariadbServer.skipReason()
                .orElse(""));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        try (MariadbServer server = MariadbServer.start(dir.resolve("mariadb"))) {
            try (Connection c = DriverManager.getConnection(server.jdbcUrl(), MariadbServer.USER, server.password());
                    Statement s = c.createStatement()) {
                assertEquals(Optional.empty(), CaptureReadiness.problem("mysql", c));

                s.execute("SET GLOBAL binlog_format = 'MIXED'");
                try (Connection fresh =
                        DriverManager.getConnection(server.jdbcUrl(), MariadbServer.USER, server.password())) {
                    Optional<String> problem = CaptureReadiness.problem("mysql", fresh);
                    assertTrue(problem.orElse("").contains("binlog_format=MIXED"), problem.toString());
                }
                s.execute("SET GLOBAL binlog_format = 'ROW'");
                s.execute("SET GLOBAL binlog_row_image = 'MINIMAL'");
                try (Connection fresh =
                        DriverManager.getConnection(server.jdbcUrl(), MariadbServer.USER, server.password())) {
                    Optional<String> problem = CaptureReadiness.problem("mysql", fresh);
                    assertTrue(problem.orElse("").contains("binlog_row_image=MINIMAL"), problem.toString());
                }
                s.execute("SET GLOBAL binlog_row_image = 'FULL'");

                s.execute("CREATE USER 'reader'@'%' IDENTIFIED BY 'secret'");
                s.execute("GRANT SELECT ON *.* TO 'reader'@'%'");
            }
            try (Connection reader = DriverManager.getConnection(server.jdbcUrl(), "reader", "secret")) {
                Optional<String> problem = CaptureReadiness.problem("mysql", reader);
                assertTrue(problem.orElse("").contains("REPLICATION SLAVE"), problem.toString());
            }
        }
    }
}
