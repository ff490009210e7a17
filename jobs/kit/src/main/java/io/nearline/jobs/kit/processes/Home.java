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
package io.nearline.jobs.kit.processes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Where the Nearline checkout is, and how the front door starts the engines' JVMs. */
public final class Home {

    private Home() {}

    /**
     * The checkout: {@code -Dnearline.home} (bin/nearline sets it), else the nearest folder above this
     * class's jar or classes folder that holds {@code bin/nearline} (the front door's jar, or a module's
     * target in a build).
     */
    public static Path dir() {
        String home = System.getProperty("nearline.home");
        if (home != null) {
            return Path.of(home);
        }
        try {
            Path here = Path.of(Home.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            for (Path p = here; p != null; p = p.getParent()) {
                if (Files.isRegularFile(p.resolve("bin/nearline"))) {
                    return p;
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot tell where Nearline is; set -Dnearline.home", e);
        }
        throw new IllegalStateException("cannot tell where Nearline is (no bin/nearline above "
                + Home.class.getProtectionDomain().getCodeSource().getLocation() + "); set -Dnearline.home");
    }

    /**
     * The local runner of every job on an engine (flink, samza; connect, the cache sink connector's):
     * what replays, the demo and benches start.
     */
    static Path engineJar(String engine) {
        return dir().resolve("local-cluster/" + engine + "-runner/target/nearline-" + engine + "-runner.jar");
    }

    /** What the cache sink connector's runner does: the cache updater's replay (the connector has no join). */
    private static final List<String> CONNECT_COMMANDS = List.of("replay-cdc", "demo");

    /**
     * An engine's runner that runs out of heap (a job falling behind live traffic keeps growing its
     * state) ends at once with an error, instead of living on with dead threads and never finishing.
     */
    private static final String EXIT_ON_OUT_OF_MEMORY = "-XX:+ExitOnOutOfMemoryError";

    /** The JVM of an engine's runner, up to its subcommand; the caller adds the arguments. */
    private static List<String> runnerCommand(String heap, Path jar, String subcommand) {
        return new ArrayList<>(List.of(
                java(), heap, EXIT_ON_OUT_OF_MEMORY, couchbaseJarProperty(), "-jar", jar.toString(), subcommand));
    }

    /** The broker as its own process: the Samza side's, and the local cluster's. */
    public static Path kafkaJar(Path home) {
        return home.resolve("local-cluster/kafka/target/nearline-kafka.jar");
    }

    /** The tools' own jar, what bin/nearline runs: the processes a deploy starts beside a cluster (the verifier). */
    public static Path toolsJar(Path home) {
        return home.resolve("cli/target/nearline-local.jar");
    }

    /** CouchbaseMock as its own process: what --store couchbase and the local cluster start. */
    public static Path couchbaseJar(Path home) {
        return home.resolve("local-cluster/couchbase-mock/target/nearline-couchbase-mock.jar");
    }

    /**
     * The command that runs {@code subcommand} of an engine's runner with this command's own arguments
     * (everything after {@code spec}'s name, {@code --engine} left out), plus the broker jar on Samza.
     */
    static List<String> engineCommand(String engine, String subcommand, CommandSpec spec, boolean kafkaJarGiven) {
        List<String> command = runnerCommand("-Xmx2g", engineJar(engine), subcommand);
        List<String> all = spec.commandLine().getParseResult().originalArgs(); // the whole command line
        List<String> mine = all.subList(all.indexOf(spec.name()) + 1, all.size());
        for (int i = 0; i < mine.size(); i++) {
            if (mine.get(i).equals("--engine")) {
                i++;
            } else if (!mine.get(i).startsWith("--engine=")) {
                command.add(mine.get(i));
            }
        }
        if (!kafkaJarGiven) {
            addKafkaJarOnSamza(command, engine);
        }
        return command;
    }

    /** Samza's runner and Connect's start the broker as a process of its own, from this jar. */
    private static void addKafkaJarOnSamza(List<String> command, String engine) {
        if (engine.equals("samza") || engine.equals("connect")) {
            command.add("--kafka-jar");
            command.add(kafkaJar(dir()).toString());
        }
    }

    /**
     * Runs {@code subcommand} of the engine's runner on {@code engine} with this command's own
     * arguments (see {@link #engineCommand}); a wrong engine name is the user's mistake.
     */
    public static int runOnEngine(String engine, String subcommand, CommandSpec spec, boolean kafkaJarGiven)
            throws IOException, InterruptedException {
        boolean connect = engine.equals("connect") && CONNECT_COMMANDS.contains(subcommand);
        if (!engine.equals("flink") && !engine.equals("samza") && !connect) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--engine must be flink or samza" + (CONNECT_COMMANDS.contains(subcommand) ? " or connect" : "")
                            + ", got " + engine);
        }
        return run(engineCommand(engine, subcommand, spec, kafkaJarGiven), engineJar(engine));
    }

    /**
     * Runs {@code subcommand} of the engine's runner on {@code engine} with {@code args} and the
     * broker jar on Samza (the benchmarks), in the foreground; returns its exit code.
     */
    public static int runBench(String engine, String subcommand, List<String> args)
            throws IOException, InterruptedException {
        Path jar = engineJar(engine);
        List<String> command = runnerCommand("-Xmx3g", jar, subcommand);
        command.addAll(args);
        addKafkaJarOnSamza(command, engine);
        System.out.printf("%n== %s ==%n", engine);
        return run(command, jar);
    }

    /** Where the runner finds CouchbaseMock, for the tools that start it (--store couchbase). */
    private static String couchbaseJarProperty() {
        return "-Dnearline.couchbase.jar=" + couchbaseJar(dir());
    }

    /** This JVM's java binary: every process the tools start runs on the same Java. */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Runs {@code command} in the foreground with this terminal, and returns its exit code. */
    static int run(List<String> command, Path jar) throws IOException, InterruptedException {
        if (!Files.isRegularFile(jar)) {
            System.err.println(
                    jar + " is missing: build with ./mvnw package -DskipTests (bin/nearline does it for you)");
            return 2;
        }
        Process process = new ProcessBuilder(command).inheritIO().start();
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroy));
        return process.waitFor();
    }
}
