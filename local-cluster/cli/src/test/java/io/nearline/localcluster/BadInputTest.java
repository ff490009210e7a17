package io.nearline.localcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        Path empty = Files.writeString(dir.resolve("events.jsonl"), "");
        Path snapshot = Files.writeString(dir.resolve("snapshot.jsonl"), "");
        Path misspeltKey = Files.writeString(
                dir.resolve("misspelt-key.properties"), "kafka.bootstrap-servers=127.0.0.1:1\nbootstrap.perod=1h\n");
        Path misspeltNamespace = Files.writeString(
                dir.resolve("misspelt-namespace.yaml"), "kafka.bootstrap-servers: 127.0.0.1:1\nbootstrp.period: 1h\n");
        Path negative = Files.writeString(
                dir.resolve("negative.properties"), "kafka.bootstrap-servers=127.0.0.1:1\nbootstrap.period=-2h\n");
        return Stream.of(
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
                        "x"),
                mistake(
                        "an engine that is not one",
                        "--engine must be flink or samza",
                        "replay",
                        "cdc",
                        "--engine",
                        "flonk",
                        "--events",
                        empty.toString(),
                        "--out",
                        "x"),
                mistake(
                        "a word for a number",
                        "'--partitions'",
                        "replay",
                        "cdc",
                        "--engine",
                        "flink",
                        "--events",
                        empty.toString(),
                        "--out",
                        "x",
                        "--partitions",
                        "many"),
                mistake(
                        "an unknown option",
                        "--partitons",
                        "replay",
                        "join",
                        "--engine",
                        "samza",
                        "--index",
                        empty.toString(),
                        "--broker",
                        empty.toString(),
                        "--out-dir",
                        "x",
                        "--partitons",
                        "2"),
                mistake("a duration that is not one", "'--duration'", "demo", "--duration", "soon"),
                mistake("a negative count", "--requests", "generate", "tracking", "--out-dir", "x", "--requests", "-5"),
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
                        misspeltKey.toString()),
                mistake(
                        "a misspelt namespace",
                        "bootstrp.period",
                        "bootstrap",
                        "run",
                        "--snapshot",
                        snapshot.toString(),
                        "--config",
                        misspeltNamespace.toString()),
                mistake(
                        "a negative duration",
                        "bootstrap.period",
                        "bootstrap",
                        "run",
                        "--snapshot",
                        snapshot.toString(),
                        "--config",
                        negative.toString()),
                mistake("a --set without a value", "--set", "bootstrap", "status", "--set", "bootstrap.period"));
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
        int exit = cli.execute(args.toArray(String[]::new));
        List<String> lines =
                new ArrayList<>(err.toString().lines().filter(l -> !l.isBlank()).toList());
        assertEquals(2, exit, what + ": " + err);
        assertEquals(1, lines.size(), what + ": one line, got " + lines);
        assertTrue(lines.get(0).contains(named), what + ": names the problem: " + lines.get(0));
        assertFalse(err.toString().contains("\tat ") || err.toString().contains("Exception in"), "no stack trace");
    }
}
