package io.nearline.localcluster.databases;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.nearline.common.events.DebeziumDecoder;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL 15 captured by Debezium's PostgreSQL connector ({@code pgoutput}). Beyond the contract, a
 * second negative control: ordered by the change's own LSN, as Nearline once did, the raced keys end
 * deleted while the table has them.
 */
class PostgresCaptureIT extends CaptureContract {

    private PostgresServer server;

    @Override
    Optional<String> skipReason() {
        return PostgresServer.skipReason();
    }

    @Override
    void startServer(Path dir) throws Exception {
        server = PostgresServer.start(dir.resolve("pg"));
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id int PRIMARY KEY, v text NOT NULL)");
        }
    }

    @Override
    void close() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Override
    SourceTable sourceTable() {
        return new SourceTable("postgres", server.jdbcUrl(), PostgresServer.USER, "", "items", List.of("id"), "");
    }

    @Override
    Connection connect() throws SQLException {
        return server.connect();
    }

    @Override
    String upsert(int k, String quotedValue) {
        return "INSERT INTO items VALUES (" + k + ", " + quotedValue
                + ") ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v";
    }

    @Override
    boolean waitingOnALock(Connection watcher) throws SQLException {
        try (Statement s = watcher.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        + " AND query LIKE 'INSERT INTO items%'")) {
            r.next();
            return r.getInt(1) > 0;
        }
    }

    @Override
    Properties connectorProperties() {
        Properties p = engineProperties(
                "io.debezium.connector.postgresql.PostgresConnector", server.port(), PostgresServer.USER, "");
        p.setProperty("database.dbname", PostgresServer.DATABASE);
        p.setProperty("plugin.name", "pgoutput");
        p.setProperty("slot.name", "nearline_capture_it");
        p.setProperty("publication.autocreate.mode", "filtered");
        p.setProperty("table.include.list", "public.items");
        return p;
    }

    /** The race is in the capture: by the change's own LSN the delete wins on every raced key. */
    @Test
    void orderingByTheChangesOwnLsnGetsTheRaceWrong() {
        Map<String, String> byLsn = apply(capture, new DebeziumDecoder(List.of("id"), "", "source.lsn"));
        for (String key : racedKeys) {
            assertFalse(byLsn.containsKey(key), "by the change's LSN the delete wins for key " + key);
        }
        assertNotEquals(table, byLsn, "the negative control diverges");
    }
}
