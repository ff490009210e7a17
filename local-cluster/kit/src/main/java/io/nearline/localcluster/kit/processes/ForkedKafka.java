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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The embedded Kafka broker in a JVM of its own ({@code nearline-kafka.jar}): a Samza JVM cannot hold a
 * Kafka 4 broker (its Kafka client is 2.x and its Scala 2.12). Started with {@link #start}, which returns once the broker prints that
 * clients may connect; {@link #close} closes the broker's stdin, which makes it shut down cleanly,
 * and kills it only if it does not exit in time. Only the process started here is ever stopped.
 */
public final class ForkedKafka implements LocalBroker {

    private static final String READY_PREFIX = "BOOTSTRAP_SERVERS="; // EmbeddedKafkaMain.READY_PREFIX

    private final Path jar;
    private final Path dir;
    private final int port;
    private final int controllerPort;
    private Process process;

    private ForkedKafka(Path jar, Path dir, int port, int controllerPort) {
        this.jar = jar;
        this.dir = dir;
        this.port = port;
        this.controllerPort = controllerPort;
    }

    /** The broker jar: the one given, else {@code -Dnearline.kafka.jar}, else the build's output in this checkout. */
    public static Path brokerJar(Path given) {
        return given != null
                ? given
                : Path.of(System.getProperty("nearline.kafka.jar", "local-cluster/kafka/target/nearline-kafka.jar"));
    }

    public static ForkedKafka start(Path jar, Path dir) throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("broker jar " + jar + " not found: build it with "
                    + "./mvnw package -pl local-cluster/kafka -am -DskipTests");
        }
        Files.createDirectories(dir);
        // the ports are chosen here, so that a restart finds the broker where the clients knew it
        ForkedKafka kafka = new ForkedKafka(jar, dir, LocalProcesses.freePort(), LocalProcesses.freePort());
        kafka.launch();
        return kafka;
    }

    private void launch() throws IOException {
        String java = Home.java();
        process = new ProcessBuilder(
                        java,
                        "-Xmx768m",
                        "-jar",
                        jar.toString(),
                        "--port",
                        Integer.toString(port),
                        "--controller-port",
                        Integer.toString(controllerPort),
                        dir.toString())
                .redirectError(ProcessBuilder.Redirect.appendTo(
                        dir.resolve("broker.log").toFile()))
                .start();
        if (ForkedJvm.awaitReadyLine(process, READY_PREFIX, Duration.ofSeconds(90))
                .isPresent()) {
            return;
        }
        process.destroyForcibly();
        throw new IllegalStateException("the broker did not start; see " + dir.resolve("broker.log"));
    }

    @Override
    public void restart() throws IOException {
        close();
        launch();
    }

    @Override
    public Optional<ProcessHandle> ownProcess() {
        return Optional.ofNullable(process).map(Process::toHandle);
    }

    @Override
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
