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
package io.nearline.common.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A private {@code redis-server} (Debian's package) on 127.0.0.1, with its configuration, log and
 * password file in a directory of its own. It keeps no data on disk (a cache node without
 * persistence): {@linkplain #restart started again} it is empty, on the same port. Clients log in as
 * the ACL user {@value #USER}, allowed only the commands the store runs ({@link Store#jobCommands}),
 * with a random password read from a file; {@value #ADMIN} (another password) loads the store's
 * functions ({@link Store#loadFunctions}) whenever the server starts, as an operator would, and runs
 * the harness's own commands ({@link #cli}); the default user is off. Only the process started here is
 * ever signalled.
 */
public final class RedisServerProcess implements AutoCloseable {

    /**
     * What the Redis store asks of a server: the ACL rule of the commands its jobs may run, and how
     * its admin loads its function library (given the admin's store settings). The store's module
     * says both; this kit, below it, takes them as given.
     */
    public record Store(String jobCommands, Consumer<Map<String, String>> loadFunctions) {}

    public static final String USER = "nearline";
    public static final String PASSWORD_FILE = "redis.password";
    public static final String ADMIN = "nearline-admin";
    public static final String ADMIN_PASSWORD_FILE = "redis-admin.password";
    public static final String REQUIRE = "nearline.requireRedis";
    public static final String REQUIRE_ENV = "NEARLINE_REQUIRE_REDIS";
    private static final String READY = "Ready to accept connections";

    private final Path dir;
    private final int port;
    private final Path config;
    private final Path passwordFile;
    private final Store store;
    private final boolean functions;
    private Process process;

    private RedisServerProcess(Path dir, int port, Path config, Store store, boolean functions) {
        this.dir = dir;
        this.port = port;
        this.config = config;
        this.passwordFile = dir.resolve(PASSWORD_FILE);
        this.store = store;
        this.functions = functions;
    }

    /** The server binary, or empty where the package is not installed. */
    public static Optional<Path> binary() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path candidate = Path.of(dir, "redis-server");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        Path debian = Path.of("/usr/bin/redis-server");
        return Files.isExecutable(debian) ? Optional.of(debian) : Optional.empty();
    }

    /** Why a server cannot be started here, or empty when it can. */
    public static Optional<String> unavailableReason() {
        return binary().isPresent()
                ? Optional.empty()
                : Optional.of("redis-server is not installed (Debian: apt-get install redis-server)");
    }

    /**
     * For tests: why a Redis test should be skipped here, or empty when it can run. Where the system
     * property {@value #REQUIRE} or the environment variable {@value #REQUIRE_ENV} is true (CI sets it,
     * having installed the package) a missing server is an error instead, so that a suite cannot pass
     * by skipping.
     */
    public static Optional<String> skipReason() {
        Optional<String> whyNot = unavailableReason();
        boolean required = Boolean.getBoolean(REQUIRE) || "true".equals(System.getenv(REQUIRE_ENV));
        if (whyNot.isPresent() && required) {
            throw new IllegalStateException("-D" + REQUIRE + "=true but " + whyNot.get());
        }
        return whyNot.map(reason -> "skipped: " + reason);
    }

    /** Starts a server for {@code store} with its files in {@code dir}; {@code extraConfig} lines are added to its configuration. */
    public static RedisServerProcess start(Path dir, Store store, List<String> extraConfig) throws IOException {
        return start(dir, store, extraConfig, true);
    }

    /**
     * As {@link #start(Path, Store, List)}; without {@code functions} the admin loads nothing, at this
     * start or any restart (a cluster's node, loaded once the cluster serves; a server the test keeps bare).
     */
    public static RedisServerProcess start(Path dir, Store store, List<String> extraConfig, boolean functions)
            throws IOException {
        int port = LocalProcesses.freePort();
        Path config = writeConfig(dir, "127.0.0.1", port, store, extraConfig);
        RedisServerProcess server = new RedisServerProcess(dir, port, config, store, functions);
        server.launch();
        return server;
    }

    /**
     * Writes the configuration of a server listening on {@code host:port}, with its log in {@code dir},
     * no persistence, the default user off and {@value #USER} logging in with a new random password
     * (in {@code dir/redis.password}, kept if there); returns the configuration file to start
     * {@code redis-server} with. Both files are readable by their owner only.
     */
    public static Path writeConfig(Path dir, String host, int port, Store store, List<String> extraConfig)
            throws IOException {
        Files.createDirectories(dir);
        Path password = dir.resolve(PASSWORD_FILE);
        Path admin = dir.resolve(ADMIN_PASSWORD_FILE);
        for (Path file : List.of(password, admin)) {
            if (!Files.exists(file)) {
                writePrivate(file, HexFormat.of().formatHex(new SecureRandom().generateSeed(12)));
            }
        }
        Path config = dir.resolve("redis.conf");
        List<String> lines = new ArrayList<>(List.of(
                "port " + port,
                "bind " + host,
                "dir " + dir.toAbsolutePath(),
                "save \"\"",
                "appendonly no",
                "daemonize no",
                "logfile " + dir.toAbsolutePath().resolve("redis.log"),
                "user default off",
                "user " + USER + " on #" + sha256(password) + " ~* resetchannels " + store.jobCommands(),
                "user " + ADMIN + " on #" + sha256(admin) + " ~* &* +@all"));
        lines.addAll(extraConfig);
        writePrivate(config, String.join("\n", lines) + "\n");
        return config;
    }

    /**
     * The SHA-256 of the password in {@code file}, in hex: what an ACL rule takes as {@code #<hash>}, so
     * that the server's config holds no password in clear.
     */
    static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(Files.readString(file).trim().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    public static RedisServerProcess start(Path dir, Store store) throws IOException {
        return start(dir, store, List.of());
    }

    private void launch() throws IOException {
        launch(functions);
    }

    private void launch(boolean loadFunctions) throws IOException {
        Path binary = binary().orElseThrow(
                        () -> new IllegalStateException(unavailableReason().orElseThrow()));
        Path log = dir.resolve("redis.log");
        long logged = Files.exists(log) ? Files.size(log) : 0;
        process = new ProcessBuilder(binary.toString(), config.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        dir.resolve("redis.out").toFile()))
                .start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline && process.isAlive()) {
            if (Files.exists(log) && newText(log, logged).contains(READY)) {
                if (loadFunctions) {
                    loadFunctions();
                }
                return;
            }
            LocalProcesses.sleep(50);
        }
        process.destroyForcibly();
        throw new IllegalStateException(
                "redis-server did not start on port " + port + "; see " + log + " and " + dir.resolve("redis.out"));
    }

    private static String newText(Path log, long from) throws IOException {
        byte[] all = Files.readAllBytes(log);
        return from >= all.length ? "" : new String(all, (int) from, all.length - (int) from, StandardCharsets.UTF_8);
    }

    public int port() {
        return port;
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    public Path passwordFile() {
        return passwordFile;
    }

    /** Loads the store's functions as {@value #ADMIN}: what an operator does after the server starts empty. */
    public void loadFunctions() {
        loadFunctions(dir, uri(), store);
    }

    /** As {@link #loadFunctions()}, on the server at {@code uri} whose files {@link #writeConfig} wrote in {@code dir}. */
    public static void loadFunctions(Path dir, String uri, Store store) {
        store.loadFunctions().accept(adminSettings(dir, uri));
    }

    /** The settings of {@value #ADMIN} on this server. */
    public Map<String, String> adminSettings() {
        return adminSettings(dir, uri());
    }

    private static Map<String, String> adminSettings(Path dir, String uri) {
        Map<String, String> admin = new LinkedHashMap<>();
        admin.put("cache.store", "redis");
        admin.put("redis.servers", uri);
        admin.put("redis.username", ADMIN);
        admin.put("redis.password", "file:" + dir.resolve(ADMIN_PASSWORD_FILE).toAbsolutePath());
        return admin;
    }

    /** The job settings that reach this server (the password by reference to its file). */
    public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("cache.store", "redis");
        settings.put("redis.servers", uri());
        settings.put("redis.username", USER);
        settings.put("redis.password", "file:" + passwordFile.toAbsolutePath());
        return settings;
    }

    /** Kills the server (SIGKILL): its data is gone, as a cache node's without persistence. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Kills the server and starts it again, empty, on the same port (the admin loading the functions). */
    public void restart() throws IOException {
        kill();
        launch();
    }

    /** As {@link #restart}, without anyone loading the functions: what a job sees until an admin does. */
    public void restartWithoutFunctions() throws IOException {
        kill();
        launch(false);
    }

    /** Freezes the server (SIGSTOP): connections stay open, so commands time out instead of being refused. */
    public void pause() throws IOException {
        signal("STOP");
    }

    /** Lets a {@linkplain #pause paused} server go on (SIGCONT). */
    public void resume() throws IOException {
        signal("CONT");
    }

    /** Runs {@code redis-cli} against this server as {@value #ADMIN}; returns what it printed. */
    public String cli(String... args) throws IOException {
        return run(cliAs(ADMIN, dir.resolve(ADMIN_PASSWORD_FILE), args));
    }

    /** Runs {@code redis-cli} as the job's user {@value #USER}; returns what it printed, errors included. */
    public String cliAsJob(String... args) throws IOException {
        try {
            return run(cliAs(USER, passwordFile, args));
        } catch (IOException refused) { // redis-cli exits 1 on an error reply
            return refused.getMessage();
        }
    }

    private List<String> cliAs(String user, Path password, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                "redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port), "--user", user, "--no-auth-warning"));
        command.add("--pass");
        command.add(Files.readString(password).trim());
        command.addAll(List.of(args));
        return command;
    }

    static String run(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException(command.get(0) + " " + command.get(command.size() - 1) + " failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        return out;
    }

    private void signal(String name) throws IOException {
        run(List.of("kill", "-" + name, Long.toString(process.pid())));
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            kill(); // SIGKILL ends a frozen process too
        }
    }

    private static void writePrivate(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }
}
