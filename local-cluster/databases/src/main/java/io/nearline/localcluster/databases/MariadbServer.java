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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A private MariaDB server (Debian's package) on 127.0.0.1, its data directory in a directory of its
 * own, writing a row-based binlog (full row images) so that Debezium's MySQL connector can stream it.
 * The user {@value #USER} (all privileges, from loopback only, or from the hosts {@link #initialize} names) logs in with a random password kept in
 * {@code dir/mariadb.password}; the database {@value #DATABASE} exists.
 *
 * <p>The server reports its version in MySQL 5's form ({@code 5.5.5-10.11...}, the prefix MariaDB
 * itself sends to clients): Debezium's MySQL connector takes a bare {@code 10.11} for MySQL 8.4 or
 * later and asks for {@code SHOW BINARY LOG STATUS}, which MariaDB does not have. Run by root the
 * server runs as the package's {@code mysql} user. The process started is {@code mariadbd} itself; it
 * is the only process ever signalled.
 */
public final class MariadbServer implements AutoCloseable {

    public static final String USER = "nearline";
    public static final String DATABASE = "nearline";
    public static final String REQUIRE_ENV = "NEARLINE_REQUIRE_MARIADB";
    public static final String READY = "ready for connections";
    private static final Path SERVER = Path.of("/usr/sbin/mariadbd");
    private static final Path INSTALL_DB = Path.of("/usr/bin/mariadb-install-db");

    private final int port;
    private final String password;
    private final Process process;

    private MariadbServer(int port, String password, Process process) {
        this.port = port;
        this.password = password;
        this.process = process;
    }

    /**
     * For tests: why a MariaDB test should be skipped here, or empty when it can run. Where the
     * environment variable {@value #REQUIRE_ENV} is true (CI sets it, having installed the package) a
     * missing server is an error instead.
     */
    public static Optional<String> skipReason() {
        if (Files.isExecutable(SERVER) && Files.isExecutable(INSTALL_DB)) {
            return Optional.empty();
        }
        String why = "MariaDB is not installed (Debian: apt-get install mariadb-server)";
        if ("true".equals(System.getenv(REQUIRE_ENV))) {
            throw new IllegalStateException(REQUIRE_ENV + "=true but " + why);
        }
        return Optional.of("skipped: " + why);
    }

    /** Creates a data directory in {@code dir/data} and starts the server on a free loopback port. */
    public static MariadbServer start(Path dir) throws IOException {
        String password = initialize(dir, "127.0.0.1");
        int port = LocalProcesses.freePort();
        Process process = new ProcessBuilder(serverCommand(dir, "127.0.0.1", port, List.of()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        dir.resolve("mariadb.out").toFile()))
                .start();
        MariadbServer server = new MariadbServer(port, password, process);
        server.awaitReady(errorLog(dir));
        return server;
    }

    /**
     * Creates a data directory in {@code dir/data} whose server, at start, makes the user {@value #USER}
     * (connecting from {@code clientHosts}, a MariaDB host pattern such as {@code 127.0.0.1} or
     * {@code 10.%}) and the database {@value #DATABASE}; returns the user's password.
     */
    public static String initialize(Path dir, String clientHosts) throws IOException {
        skipReason().ifPresent(why -> {
            throw new IllegalStateException(why);
        });
        Path data = dir.resolve("data").toAbsolutePath();
        Files.createDirectories(data);
        Processes.run(
                List.of(
                        INSTALL_DB.toString(),
                        "--no-defaults",
                        "--datadir=" + data,
                        "--user=" + osUser(),
                        "--auth-root-authentication-method=normal",
                        "--skip-test-db"),
                dir.resolve("setup.log"));
        String password = password(dir);
        writeInitFile(dir, password, clientHosts);
        if (Processes.isRoot()) {
            Processes.run(List.of("chown", "-R", "mysql:", dir.toAbsolutePath().toString()), dir.resolve("setup.log"));
        }
        return password;
    }

    /**
     * The command that runs the server {@link #initialize} prepared in {@code dir} on {@code host:port},
     * with a row-based binlog of full images, and {@code extra} options.
     */
    public static List<String> serverCommand(Path dir, String host, int port, List<String> extra) throws IOException {
        Path abs = dir.toAbsolutePath();
        List<String> command = new ArrayList<>(List.of(
                SERVER.toString(),
                "--no-defaults",
                "--datadir=" + abs.resolve("data"),
                "--user=" + osUser(),
                "--bind-address=" + host,
                "--port=" + port,
                "--socket=" + abs.resolve("mariadb.sock"),
                "--pid-file=" + abs.resolve("mariadb.pid"),
                "--log-error=" + errorLog(dir),
                "--init-file=" + abs.resolve("init.sql"),
                "--skip-name-resolve",
                "--server-id=1",
                "--log-bin=" + abs.resolve("data/binlog"),
                "--binlog-format=ROW",
                "--binlog-row-image=FULL",
                "--innodb-buffer-pool-size=64M",
                "--innodb-flush-log-at-trx-commit=2",
                "--version=" + mysqlStyleVersion()));
        command.addAll(extra);
        return command;
    }

    /** The server's error log, where it says when it is ready ({@value #READY}). */
    public static Path errorLog(Path dir) {
        return dir.resolve("mariadb.err").toAbsolutePath();
    }

    private static String osUser() {
        return Processes.isRoot() ? "mysql" : System.getProperty("user.name");
    }

    /** The password of {@value #USER}, made once and kept in {@code dir/mariadb.password}. */
    private static String password(Path dir) throws IOException {
        Path file = dir.resolve("mariadb.password");
        if (!Files.exists(file)) {
            Files.writeString(file, HexFormat.of().formatHex(new SecureRandom().generateSeed(12)));
        }
        return Files.readString(file).trim();
    }

    /** The statements the server runs at start: the user {@value #USER} and the database {@value #DATABASE}. */
    private static Path writeInitFile(Path dir, String password, String clientHosts) throws IOException {
        return Files.writeString(
                dir.resolve("init.sql"),
                String.join(
                        "\n",
                        "CREATE USER IF NOT EXISTS '" + USER + "'@'" + clientHosts + "' IDENTIFIED BY '" + password
                                + "';",
                        "GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'" + clientHosts + "' WITH GRANT OPTION;",
                        "CREATE DATABASE IF NOT EXISTS " + DATABASE + ";",
                        ""),
                StandardCharsets.UTF_8);
    }

    public int port() {
        return port;
    }

    public String password() {
        return password;
    }

    /** The JDBC URL of the {@value #DATABASE} database (for MySQL's driver). */
    public String jdbcUrl() {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + DATABASE;
    }

    /** Stops the server (SIGTERM: a clean shutdown), then waits for it. */
    @Override
    public void close() {
        Processes.stop(process, "TERM");
    }

    private void awaitReady(Path log) throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline && process.isAlive()) {
            if (Files.exists(log) && Files.readString(log).contains(READY)) {
                return;
            }
            LocalProcesses.sleep(100);
        }
        process.destroyForcibly();
        throw new IOException("MariaDB did not start on port " + port + "; see " + log);
    }

    /** {@code 5.5.5-} and the server's own version, as MariaDB announces itself to MySQL clients. */
    private static String mysqlStyleVersion() throws IOException {
        Process p = new ProcessBuilder(SERVER.toString(), "--version")
                .redirectErrorStream(true)
                .start();
        try {
            p.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        Matcher version = Pattern.compile("Ver (\\S+)").matcher(out);
        if (!version.find()) {
            throw new IOException("cannot read the version of " + SERVER + ": " + out.strip());
        }
        return "5.5.5-" + version.group(1);
    }
}
