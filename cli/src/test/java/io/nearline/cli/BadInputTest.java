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
package io.nearline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * A user's mistake, wherever it is made (an option's type, a value out of range, a file that is not
 * there, a misspelt command, key or namespace in a settings file), ends the front door the same way:
 * exit 2 and one line naming the problem, no usage dump, no stack trace, before anything starts.
 */
class BadInputTest {

    @TempDir
    static Path dir;

    static Stream<Arguments> mistakes() throws Exception {
        Path snapshot = Files.writeString(dir.resolve("snapshot.jsonl"), "");
        Path misspeltKey = Files.writeString(
                dir.resolve("misspelt-key.properties"), "kafka.bootstrap-servers=127.0.0.1:1\nbootstrap.perod=1h\n");
        Path misspeltNamespace = Files.writeString(
                dir.resolve("misspelt-namespace.yaml"), "kafka.bootstrap-servers: 127.0.0.1:1\nbootstrp.period: 1h\n");
        Path negative = Files.writeString(
                dir.resolve("negative.properties"), "kafka.bootstrap-servers=127.0.0.1:1\nbootstrap.period=-2h\n");
        // a Latin-1 é in the second line's value
        Path latin1 = Files.write(
                dir.resolve("latin1.jsonl"),
                ("{\"table\": \"t\", \"key\": \"a\", \"partition\": 0, \"scn\": 1, \"op\": \"UPSERT\", "
                                + "\"schemaVersion\": 1, \"payload\": \"x\"}\n{\"table\": \"t\", \"key\": \"caf\u00e9\"}\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
        String notUtf8 = "latin1.jsonl is not UTF-8: line 2, byte 131 of the file (column 27 of the line) is 0xE9";
        return Stream.of(
                mistake(
                        "an events file that is not UTF-8",
                        notUtf8,
                        "replay",
                        "cdc",
                        "--engine",
                        "flink",
                        "--events",
                        latin1.toString(),
                        "--out",
                        out().toString()),
                mistake(
                        "an events file that is not UTF-8, checked",
                        notUtf8,
                        "check",
                        "--events",
                        latin1.toString(),
                        "--state",
                        snapshot.toString()),
                mistake(
                        "--events /nope.jsonl",
                        "cannot read /nope.jsonl",
                        "replay",
                        "cdc",
                        "--engine",
                        "flink",
                        "--events",
                        "/nope.jsonl",
                        "--out",
                        out().toString()),
                mistake("an engine that is not one", "--engine must be flink or samza", replayCdc("flonk")),
                mistake("a verifier of a database that is not one", "--source oracle", "verify", "--source", "oracle"),
                mistake(
                        "a verifier that never waits",
                        "--every must be above 0",
                        "verify",
                        "--source",
                        "mysql",
                        "--every",
                        "0s"),
                mistake("a word for a number", "'--partitions'", replayCdc("flink", "--partitions", "many")),
                mistake("an unknown option", "--partitons", replayJoin("samza", "--partitons", "2")),
                mistake("a duration that is not one", "'--duration'", "demo", "--duration", "soon"),
                mistake(
                        "a negative count",
                        "--requests",
                        "generate",
                        "tracking",
                        "--out-dir",
                        out().toString(),
                        "--requests",
                        "-5"),
                mistake("a bench of nothing", "--events must be at least 1", "bench", "cdc", "--events", "-3"),
                mistake("a race of no writers", "--writers", "race", "--writers", "0"),
                mistake("a command that does not exist", "frobnicate", "frobnicate"),
                mistake("a descriptor that does not exist", "no descriptor /nope.yaml", "deploy", "/nope.yaml"),
                mistake(
                        "an events file that does not exist",
                        "/nope.jsonl",
                        "check",
                        "--events",
                        "/nope.jsonl",
                        "--state",
                        "/nope-state.jsonl"),
                mistake(
                        "a misspelt key",
                        "bootstrap.perod",
                        "bootstrap",
                        "run",
                        "--snapshot",
                        snapshot.toString(),
                        "--config",
                        misspeltKey.toString(),
                        "--state",
                        out().resolve("bootstrap.state").toString()),
                mistake(
                        "a misspelt namespace",
                        "bootstrp.period",
                        "bootstrap",
                        "run",
                        "--snapshot",
                        snapshot.toString(),
                        "--config",
                        misspeltNamespace.toString(),
                        "--state",
                        out().resolve("bootstrap.state").toString()),
                mistake(
                        "a negative duration",
                        "bootstrap.period",
                        "bootstrap",
                        "run",
                        "--snapshot",
                        snapshot.toString(),
                        "--config",
                        negative.toString(),
                        "--state",
                        out().resolve("bootstrap.state").toString()),
                mistake("a --set without a value", "--set", "bootstrap", "status", "--set", "bootstrap.period"));
    }

    /**
     * Each job's shipped config files (Samza properties, Flink YAML) with one value made bad: a
     * negative duration, a value of the wrong type, a misspelt key, a misspelt namespace. The job's
     * replay must refuse each naming the key, before anything starts.
     */
    static Stream<Arguments> badShippedConfigs() throws Exception {
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<Arguments> all = new ArrayList<>();
        String[][] cases = {
            // file, line as shipped, the line made bad, the key the refusal must name
            {"cache-updater/samza/conf/cache-updater.properties", "cache.ttl=7d", "cache.ttl=-7d", "cache.ttl"},
            {
                "cache-updater/samza/conf/cache-updater.properties",
                "bootstrap.period=1d",
                "bootstrap.period=daily",
                "bootstrap.period"
            },
            {"cache-updater/samza/conf/cache-updater.properties", "cdc.topic=", "cdc.topc=", "cdc.topc"},
            {"cache-updater/samza/conf/cache-updater.properties", "cache.store=", "cach.store=", "cach.store"},
            {"cache-updater/flink/conf/cache-updater.yaml", "  ttl: 7d", "  ttl: -7d", "cache.ttl"},
            {
                "cache-updater/flink/conf/cache-updater.yaml",
                "  max-payload-bytes: 1048576",
                "  max-payload-bytes: lots",
                "cache.max-payload-bytes"
            },
            {
                "cache-updater/flink/conf/cache-updater.yaml",
                "  topic: espresso.profile.cdc",
                "  topc: espresso.profile.cdc",
                "cdc.topc"
            },
            {"cache-updater/flink/conf/cache-updater.yaml", "cache:", "cach:", "cach."},
            {
                "feed-tracking-join/samza/conf/tracking-join.properties",
                "join.window=30s",
                "join.window=-30s",
                "join.window"
            },
            {
                "feed-tracking-join/samza/conf/tracking-join.properties",
                "join.idle-timeout=60s",
                "join.idle-timeout=a minute",
                "join.idle-timeout"
            },
            {"feed-tracking-join/samza/conf/tracking-join.properties", "join.window=", "join.windw=", "join.windw"},
            {
                "feed-tracking-join/samza/conf/tracking-join.properties",
                "join.allowed-lateness=",
                "jion.allowed-lateness=",
                "jion.allowed-lateness"
            },
            {"feed-tracking-join/flink/conf/tracking-join.yaml", "  window: 30s", "  window: -30s", "join.window"},
            {
                "feed-tracking-join/flink/conf/tracking-join.yaml",
                "  idle-timeout: 60s",
                "  idle-timeout: a minute",
                "join.idle-timeout"
            },
            {
                "feed-tracking-join/flink/conf/tracking-join.yaml",
                "  allowed-lateness: 5s",
                "  allowed-latenes: 5s",
                "join.allowed-latenes"
            },
            {"feed-tracking-join/flink/conf/tracking-join.yaml", "join:", "jion:", "jion."},
        };
        for (String[] c : cases) {
            Path shipped = root.resolve(c[0]);
            String text = Files.readString(shipped);
            assertTrue(text.contains(c[1]), c[0] + " no longer has " + c[1]);
            String name = shipped.getFileName().toString();
            Path bad = Files.writeString(
                    dir.resolve(all.size() + "-" + name), text.replaceFirst(Pattern.quote(c[1]), c[2]));
            String what = c[0] + ": " + c[2].strip();
            String[] config = {"--config", bad.toString()};
            all.add(mistake(
                    what,
                    c[3],
                    name.startsWith("cache-updater") ? replayCdc("flink", config) : replayJoin("flink", config)));
        }
        // a store that cannot be reached is found before the run starts, by the engine's runner
        all.add(mistake(
                "a Redis server that does not answer",
                "redis.servers",
                replayCdc("flink", "--store", "redis", "--redis-servers", "redis://127.0.0.1:1")));
        return all.stream();
    }

    /** As a user runs it: the front door in a process of its own, which starts the engine's runner (another one). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("badShippedConfigs")
    void aShippedConfigMadeBadEndsWithOneLineAndExitTwo(String what, String named, List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // as bin/nearline does: the checkout named, whichever jar the kit comes from
                "-Dnearline.home=" + Path.of("..").toAbsolutePath().normalize(),
                "-cp",
                System.getProperty("java.class.path"),
                NearlineCli.class.getName()));
        command.addAll(args);
        Process process = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), what + ": did not end");
        assertOneLineAndExitTwo(what, named, process.exitValue(), err);
    }

    /** {@code replay cdc} of an empty events file on {@code engine}, its output in the test's dir, then {@code more}. */
    private static String[] replayCdc(String engine, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "replay", "cdc", "--engine", engine, "--events", empty().toString(), "--out", out().toString()));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    /** {@code replay join} of empty input files on {@code engine}, its outputs in the test's dir, then {@code more}. */
    private static String[] replayJoin(String engine, String... more) throws IOException {
        String empty = empty().toString();
        List<String> args = new ArrayList<>(List.of(
                "replay",
                "join",
                "--engine",
                engine,
                "--index",
                empty,
                "--broker",
                empty,
                "--out-dir",
                out().toString()));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private static Path empty() throws IOException {
        return Files.writeString(dir.resolve("empty.jsonl"), "");
    }

    /** Where a command that got as far as writing would write: never the module's own directory. */
    private static Path out() {
        return dir.resolve("out");
    }

    private static Arguments mistake(String what, String named, String... args) {
        return Arguments.of(what, named, List.of(args));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void endsWithOneLineAndExitTwo(String what, String named, List<String> args) {
        StringWriter err = new StringWriter();
        StringWriter out = new StringWriter();
        CommandLine cli = NearlineCli.commandLine();
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(out, true));
        assertOneLineAndExitTwo(what, named, cli.execute(args.toArray(String[]::new)), err.toString());
    }

    /**
     * Exit 2 and one line naming the problem; where one mistake makes several keys bad (a misspelt
     * namespace in YAML), a heading that counts them and one line per key.
     */
    private static void assertOneLineAndExitTwo(String what, String named, int exit, String err) {
        List<String> lines =
                new ArrayList<>(err.lines().filter(l -> !l.isBlank()).toList());
        assertEquals(2, exit, what + ": " + err);
        assertFalse(lines.isEmpty(), what + ": says nothing");
        if (lines.size() > 1) {
            assertTrue(lines.get(0).endsWith("(" + (lines.size() - 1) + " problems):"), what + ": " + lines);
            lines.subList(1, lines.size())
                    .forEach(l -> assertTrue(l.startsWith("  - ") && l.contains(named), what + ": " + l));
        }
        assertTrue(lines.get(0).contains(named) || lines.size() > 1, what + ": names the problem: " + lines.get(0));
        assertFalse(err.contains("\tat ") || err.contains("Exception in"), "no stack trace");
    }
}
