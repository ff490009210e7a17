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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * How the front door hands a command to an engine's runner: the user's own arguments passed on as
 * given, but for {@code --engine}; the broker's jar where that engine starts a broker of its own; a
 * wrong engine named; a runner not built yet said so, exit 2, without starting anything.
 */
class HomeTest {

    @TempDir
    Path home;

    private String before;

    @BeforeEach
    void pointHomeHere() {
        before = System.getProperty("nearline.home");
        System.setProperty("nearline.home", home.toString());
    }

    @AfterEach
    void restoreHome() {
        if (before == null) {
            System.clearProperty("nearline.home");
        } else {
            System.setProperty("nearline.home", before);
        }
    }

    /** A command as the front door has it: bin/nearline, then the command's name, then its arguments. */
    @Command(name = "replay")
    static final class Replay {
        @Option(names = "--engine")
        String engine;

        @Unmatched
        List<String> rest;

        @Spec
        CommandSpec spec;
    }

    @Command(name = "nearline", subcommands = Replay.class)
    static final class Top {}

    private static CommandSpec parsed(String... args) {
        CommandLine top = new CommandLine(new Top());
        CommandLine.ParseResult result = top.parseArgs(args);
        return result.subcommand().commandSpec();
    }

    @Test
    void theCommandsOwnArgumentsGoToTheRunnerWithoutTheEngine() {
        CommandSpec spec = parsed("replay", "--events", "changes.jsonl", "--engine=flink", "--parallelism=2");
        List<String> command = Home.engineCommand("flink", "replay-cdc", spec, false);
        assertEquals(Home.java(), command.get(0));
        int jar = command.indexOf("-jar");
        assertEquals(
                home.resolve("local-cluster/flink-runner/target/nearline-flink-runner.jar")
                        .toString(),
                command.get(jar + 1));
        assertEquals(
                List.of("replay-cdc", "--events", "changes.jsonl", "--parallelism=2"),
                command.subList(jar + 2, command.size()));
        assertTrue(command.contains("-XX:+ExitOnOutOfMemoryError"), "a runner out of heap ends: " + command);
        assertTrue(command.contains("-Dnearline.couchbase.jar="
                + home.resolve("local-cluster/couchbase-mock/target/nearline-couchbase-mock.jar")));
        assertFalse(command.contains("--kafka-jar"), "Flink's runner starts its broker in its own JVM");
    }

    @Test
    void samzaAndConnectGetTheBrokersJarUnlessTheUserGaveOne() {
        String kafkaJar = Home.kafkaJar(home).toString();
        for (String engine : List.of("samza", "connect")) {
            List<String> command =
                    Home.engineCommand(engine, "replay-cdc", parsed("replay", "--engine", engine), false);
            assertEquals(List.of("--kafka-jar", kafkaJar), command.subList(command.size() - 2, command.size()), engine);
            assertFalse(command.contains("--engine") || command.contains(engine), "the engine is not passed on");
        }
        List<String> given = Home.engineCommand(
                "samza", "replay-cdc", parsed("replay", "--engine", "samza", "--kafka-jar", "/mine.jar"), true);
        assertEquals(1, given.stream().filter("--kafka-jar"::equals).count(), given.toString());
        assertEquals("/mine.jar", given.get(given.size() - 1));
    }

    @Test
    void aWrongEngineIsTheUsersMistakeAndNamesWhatItCanBe() {
        CommandLine.ParameterException e = assertThrows(
                CommandLine.ParameterException.class,
                () -> Home.runOnEngine("spark", "replay-cdc", parsed("replay", "--engine", "spark"), false));
        assertTrue(e.getMessage().contains("flink or samza or connect, got spark"), e.getMessage());
        CommandLine.ParameterException join = assertThrows(
                CommandLine.ParameterException.class,
                () -> Home.runOnEngine("connect", "replay-join", parsed("replay", "--engine", "connect"), false));
        assertTrue(join.getMessage().endsWith("flink or samza, got connect"), "the sink has no join: " + join);
    }

    @Test
    void aRunnerNotBuiltIsSaidSoWithExit2() throws Exception {
        assertEquals(2, Home.runOnEngine("flink", "replay-cdc", parsed("replay", "--engine", "flink"), false));
        assertEquals(2, Home.runBench("samza", "bench-cdc", List.of("--events", "1000")));
    }

    @Test
    void theHomeIsWhatTheFrontDoorSaysItIs() {
        assertEquals(home, Home.dir());
        assertEquals(home.resolve("cli/target/nearline-local.jar"), Home.toolsJar(home));
        System.clearProperty("nearline.home");
        Path found = Home.dir();
        assertTrue(
                java.nio.file.Files.isRegularFile(found.resolve("bin/nearline")),
                "without the property: the checkout above this build, " + found);
    }
}
