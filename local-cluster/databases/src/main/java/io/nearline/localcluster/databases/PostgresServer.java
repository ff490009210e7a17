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

import io.nearline.common.testkit.LocalProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A private PostgreSQL server (Debian's package) on 127.0.0.1, its data directory in a directory of
 * its own, set up for logical decoding ({@code wal_level=logical}) so that Debezium's connector can
 * stream it. TCP only (no Unix socket), the user {@value #USER} with trust authentication on
 * loopback: a disposable instance for the local cluster and tests, not a hardened server.
 *
 * <p>PostgreSQL refuses to run as root; run by root, the server and {@code initdb} run as the package's
 * {@code postgres} user ({@code setpriv}), which then owns the data directory. The process started
 * here is the postmaster itself, and it is the only process ever signalled.
 */
public final class PostgresServer implements AutoCloseable {

    public static final String USER = "nearline";
    public static final String DATABASE = "postgres";
    public static final String REQUIRE_ENV = "NEARLINE_REQUIRE_POSTGRES";
    private static final String OS_USER = "postgres";

    private final Path dataDir;
    private final int port;
    private final Process process;

    private PostgresServer(Path dataDir, int port, Process process) {
        this.dataDir = dataDir;
        this.port = port;
        this.process = process;
    }

    /** The directory of the newest installed PostgreSQL's binaries, or empty where none is installed. */
    public static Optional<Path> binaries() {
        String given = System.getenv("NEARLINE_POSTGRES_BIN");
        if (given != null && !given.isBlank()) {
            return Optional.of(Path.of(given)).filter(d -> Files.isExecutable(d.resolve("postgres")));
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(debian)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(debian)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(bin -> Files.isExecutable(bin.resolve("postgres")))
                    .max(Comparator.comparingInt(PostgresServer::majorVersion));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * For tests: why a PostgreSQL test should be skipped here, or empty when it can run. Where the
     * environment variable {@value #REQUIRE_ENV} is true (CI sets it, having installed the package) a
     * missing server is an error instead, so that a suite cannot pass by skipping.
     */
    public static Optional<String> skipReason() {
        if (binaries().isPresent()) {
            return Optional.empty();
        }
        String why = "PostgreSQL is not installed (Debian: apt-get install postgresql)";
        if ("true".equals(System.getenv(REQUIRE_ENV))) {
            throw new IllegalStateException(REQUIRE_ENV + "=true but " + why);
        }
        return Optional.of("skipped: " + why);
    }

    /**
     * Creates a database cluster in {@code dir/data} (the directory must be reachable by the
     * {@code postgres} user when run as root) and starts it on a free loopback port.
     */
    public static PostgresServer start(Path dir) throws IOException {
        return start(dir, List.of());
    }

    /** As {@link #start(Path)}, with server settings of the caller's ({@code -c name=value}, after the defaults). */
    public static PostgresServer start(Path dir, List<String> extra) throws IOException {
        Path data = initialize(dir, null);
        int port = LocalProcesses.freePort();
        Process postmaster = new ProcessBuilder(serverCommand(data, "127.0.0.1", port, extra))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        dir.resolve("postgres.log").toFile()))
                .start();
        PostgresServer server = new PostgresServer(data, port, postmaster);
        server.awaitReady(dir.resolve("postgres.log"));
        return server;
    }

    /**
     * Creates a database cluster in {@code dir/data} and returns that directory. {@value #USER} comes
     * in without a password on loopback; with a {@code password}, also from the server's own subnets
     * ({@code samenet}: a private network's other end) with that password, for a server that listens on
     * such a network. Logical replication is allowed the same way.
     */
    public static Path initialize(Path dir, String password) throws IOException {
        Path bin = binaries()
                .orElseThrow(() -> new IllegalStateException(skipReason().orElse("no PostgreSQL")));
        Files.createDirectories(dir);
        Path data = dir.resolve("data");
        Files.createDirectories(data);
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"));
        if (Processes.isRoot()) {
            Processes.run(List.of("chown", OS_USER + ":", data.toString()), dir.resolve("setup.log"));
        }
        List<String> initdb = new ArrayList<>(List.of(
                bin.resolve("initdb").toString(),
                "-D",
                data.toString(),
                "-U",
                USER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync"));
        // initdb reads the password from a file the server's user can read, removed once read
        Path passwordFile = dir.resolve("initdb.password");
        if (password != null) {
            Files.writeString(passwordFile, password + "\n");
            Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-------"));
            if (Processes.isRoot()) {
                Processes.run(List.of("chown", OS_USER + ":", passwordFile.toString()), dir.resolve("setup.log"));
            }
            initdb.add("--pwfile=" + passwordFile);
        }
        Processes.run(asServerUser(initdb), dir.resolve("setup.log"));
        if (password != null) {
            Files.delete(passwordFile);
            Files.writeString(
                    data.resolve("pg_hba.conf"),
                    "host all all samenet scram-sha-256\nhost replication all samenet scram-sha-256\n",
                    StandardOpenOption.APPEND);
        }
        return data;
    }

    /**
     * The command that runs the server on {@code host:port} with the data {@link #initialize} made,
     * logical decoding on, and {@code extra} settings ({@code -c name=value}).
     */
    public static List<String> serverCommand(Path data, String host, int port, List<String> extra) {
        Path bin = binaries()
                .orElseThrow(() -> new IllegalStateException(skipReason().orElse("no PostgreSQL")));
        List<String> command = new ArrayList<>(List.of(
                bin.resolve("postgres").toString(),
                "-D",
                data.toString(),
                "-c",
                "listen_addresses=" + host,
                "-c",
                "port=" + port,
                "-c",
                "unix_socket_directories=",
                "-c",
                "wal_level=logical",
                "-c",
                "max_wal_senders=10",
                "-c",
                "max_replication_slots=10",
                "-c",
                "shared_buffers=64MB",
                "-c",
                "fsync=off"));
        command.addAll(extra);
        return asServerUser(command);
    }

    public int port() {
        return port;
    }

    /** The JDBC URL of the {@value #DATABASE} database. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), USER, "");
    }

    public Path dataDir() {
        return dataDir;
    }

    /** Stops the server with a fast shutdown (SIGINT: sessions end, the data is kept), then waits for it. */
    @Override
    public void close() {
        Processes.stop(process, "INT");
    }

    private void awaitReady(Path log) throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline && process.isAlive()) {
            try (Connection c = connect()) {
                if (c.isValid(5)) {
                    return;
                }
            } catch (SQLException e) {
                last = e;
            }
            LocalProcesses.sleep(100);
        }
        process.destroyForcibly();
        throw new IOException("PostgreSQL did not accept connections on port " + port + " (" + last + "); see " + log);
    }

    private static List<String> asServerUser(List<String> command) {
        if (!Processes.isRoot()) {
            return command;
        }
        List<String> out =
                new ArrayList<>(List.of("setpriv", "--reuid=" + OS_USER, "--regid=" + OS_USER, "--init-groups", "--"));
        out.addAll(command);
        return out;
    }

    private static int majorVersion(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
