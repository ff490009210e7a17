package io.nearline.localcluster;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** bin/nearline's command line run in the test's JVM: its exit code and what it printed, out and err together. */
public record CliRun(int exit, String out) {

    public static CliRun of(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream both = new PrintStream(captured, true, StandardCharsets.UTF_8);
        System.setOut(both);
        System.setErr(both);
        try {
            return new CliRun(NearlineCli.commandLine().execute(args), captured.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }
}
