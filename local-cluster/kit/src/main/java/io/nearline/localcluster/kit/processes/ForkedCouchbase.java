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
package io.nearline.localcluster.kit.processes;

import io.nearline.common.testkit.LocalProcesses;
import io.nearline.jobs.kit.processes.Home;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * CouchbaseMock as the networked cache of a local tool, in a JVM of its own
 * ({@code nearline-couchbase-mock.jar}), reached by the real Couchbase SDK over TCP on 127.0.0.1. Its
 * ports are chosen here and kept, so that a mock {@linkplain #restart started again} (empty, as a
 * restarted cache node without persistence is) is found where the jobs knew it. Only the process
 * started here is ever stopped. The mock's HTTP port binds every interface (it has no setting for it); clients
 * use 127.0.0.1 only.
 */
public final class ForkedCouchbase implements ForkedStore {

    private static final String READY_PREFIX = "COUCHBASE="; // CouchbaseMockMain.READY_PREFIX
    public static final String BUCKET = "nearline";

    private final Path jar;
    private final Path dir;
    private final Path passwordFile;
    private final int httpPort;
    private final int kvPort;
    private Process process;
    private String connectionString;

    private ForkedCouchbase(Path jar, Path dir, Path passwordFile, int httpPort, int kvPort) {
        this.jar = jar;
        this.dir = dir;
        this.passwordFile = passwordFile;
        this.httpPort = httpPort;
        this.kvPort = kvPort;
    }

    /** The mock's jar: {@code -Dnearline.couchbase.jar} (bin/nearline sets it), else the build's output in this checkout. */
    public static Path mockJar() {
        return Path.of(System.getProperty(
                "nearline.couchbase.jar", "local-cluster/couchbase-mock/target/nearline-couchbase-mock.jar"));
    }

    /** Starts the mock with its files in {@code dir}; returns once the SDK can connect. */
    public static ForkedCouchbase start(Path jar, Path dir) throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("CouchbaseMock jar " + jar + " not found: build it with "
                    + "./mvnw package -pl local-cluster/couchbase-mock -am -DskipTests");
        }
        Files.createDirectories(dir);
        Path password = dir.resolve("couchbase.password");
        Files.writeString(password, HexFormat.of().formatHex(new SecureRandom().generateSeed(12)));
        ForkedCouchbase mock =
                new ForkedCouchbase(jar, dir, password, LocalProcesses.freePort(), LocalProcesses.freePort());
        mock.launch();
        return mock;
    }

    private void launch() throws IOException {
        String java = Home.java();
        process = new ProcessBuilder(
                        java,
                        "-Xmx512m",
                        "-jar",
                        jar.toString(),
                        "--host",
                        "127.0.0.1",
                        "--port",
                        Integer.toString(httpPort),
                        "--kv-port",
                        Integer.toString(kvPort),
                        "--bucket",
                        BUCKET,
                        "--password-file",
                        passwordFile.toString())
                .redirectError(ProcessBuilder.Redirect.appendTo(
                        dir.resolve("couchbase.log").toFile()))
                .start();
        connectionString = ForkedJvm.awaitReadyLine(process, READY_PREFIX, Duration.ofSeconds(60))
                .orElse(null);
        if (connectionString != null) {
            return;
        }
        process.destroyForcibly();
        throw new IllegalStateException("CouchbaseMock did not start; see " + dir.resolve("couchbase.log"));
    }

    @Override
    public String describe() {
        return "CouchbaseMock at " + connectionString + ", bucket " + BUCKET;
    }

    /** The job settings that reach this mock (the password by reference to its file). */
    @Override
    public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("cache.store", "couchbase");
        settings.put("couchbase.connection-string", connectionString);
        settings.put("couchbase.username", BUCKET); // the mock authenticates a bucket by its name
        settings.put("couchbase.bucket", BUCKET);
        settings.put("couchbase.password", "file:" + passwordFile.toAbsolutePath());
        return settings;
    }

    @Override
    public List<String> replayArgs() {
        return List.of(
                "--couchbase-connection",
                connectionString,
                "--couchbase-bucket",
                BUCKET,
                "--couchbase-user",
                BUCKET,
                "--couchbase-password",
                "file:" + passwordFile.toAbsolutePath());
    }

    /** Stops the mock hard (its data is lost, as a cache node's without persistence) and starts it again. */
    @Override
    public void restart() throws IOException {
        stop();
        launch();
    }

    /** Freezes the mock (SIGSTOP): its connections stay open, so calls time out instead of being refused. */
    @Override
    public void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** Lets a {@linkplain #pause paused} mock go on (SIGCONT). */
    @Override
    public void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                .redirectErrorStream(true)
                .start();
        String said = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + name + " " + process.pid() + " failed: " + said);
        }
    }

    private void stop() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            stop();
        }
    }
}
