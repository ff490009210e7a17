package io.nearline.localcluster.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The crash test of a replay ({@code --kill-at F}): the job runs in a JVM of its own (the same runner,
 * told by a hidden option to run only the job against this replay's broker), which reports how many
 * input records the job has taken; when a fraction F of the input is taken the process is killed with
 * SIGKILL — no shutdown hook, no last checkpoint — and started again, to resume from its last
 * checkpoint (Flink) or commit (Samza) and run to the end.
 */
public final class JobProcess {

    /** How the job's process reports progress on its standard output. */
    static final String PROGRESS = "nearline-job-progress ";

    /** Options of the replay that the job's process must not see (it gets its own work dir and mode). */
    private static final Set<String> NOT_PASSED_ON =
            Set.of("--kill-at", "--work-dir", "--summary-json", "--job-process");

    private static final long TIMEOUT_MINUTES = 10;

    private JobProcess() {}

    /** In the job's process: prints how many input records the job has taken, every 100 ms, until closed. */
    public static AutoCloseable reportProgress(LongSupplier taken) {
        Thread reporter = new Thread(
                () -> {
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            System.out.println(PROGRESS + taken.getAsLong());
                            System.out.flush();
                            Thread.sleep(100);
                        }
                    } catch (InterruptedException stopped) {
                        Thread.currentThread().interrupt();
                    }
                },
                "job-progress");
        reporter.setDaemon(true);
        reporter.start();
        return reporter::interrupt;
    }

    /**
     * Runs the job of {@code replay} (the replay command, started again in the job's process) in a process of its own, kills it -9 once {@code run.killAt} of the
     * {@code total} input records are taken, starts it again with {@code --restore}, and returns when
     * that one has finished the input. Throws when a process fails or does not finish in time.
     */
    public static void runKilledAt(
            CommandSpec replay, LocalRunOptions run, Path work, String bootstrapServers, long total)
            throws IOException, InterruptedException {
        List<String> command = command(replay, work, bootstrapServers);
        long target = Math.max(1, (long) Math.ceil(run.killAt * total));
        Process first = start(command);
        AtomicLong taken = new AtomicLong();
        Thread reader = watch(first, work.resolve("job-process-1.log"), taken);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES);
        while (taken.get() < target && first.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        if (!first.isAlive()) {
            throw new IllegalStateException("the job's process ended (exit " + first.exitValue() + ") before " + target
                    + " of " + total + " input records were taken; see " + work.resolve("job-process-1.log"));
        }
        if (taken.get() < target) {
            first.destroyForcibly();
            throw new IllegalStateException("the job took only " + taken.get() + " of " + total + " input records in "
                    + TIMEOUT_MINUTES + " minutes; see " + work.resolve("job-process-1.log"));
        }
        first.destroyForcibly(); // SIGKILL: what a crash of the machine or the JVM leaves behind
        first.waitFor();
        reader.join(5000);
        System.out.printf(
                "%n  >> killed -9 the job's process (pid %d) after %,d of %,d input records; starting it again%n",
                first.pid(), taken.get(), total);

        List<String> again = new ArrayList<>(command);
        again.add("--restore");
        Process second = start(again);
        Thread secondReader = watch(second, work.resolve("job-process-2.log"), new AtomicLong());
        if (!second.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            second.destroyForcibly();
            throw new IllegalStateException("the restarted job did not finish in " + TIMEOUT_MINUTES + " minutes; see "
                    + work.resolve("job-process-2.log"));
        }
        secondReader.join(5000);
        if (second.exitValue() != 0) {
            throw new IllegalStateException("the restarted job failed (exit " + second.exitValue() + "); see "
                    + work.resolve("job-process-2.log"));
        }
    }

    /** The runner's own command line, this JVM's options and class path, with the job-process options. */
    private static List<String> command(CommandSpec replay, Path work, String bootstrapServers) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!option.startsWith("-agentlib") && !option.startsWith("-javaagent")) {
                command.add(option);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(replay.root().userObject().getClass().getName());
        List<String> original = replay.root().commandLine().getParseResult().originalArgs();
        for (int i = 0; i < original.size(); i++) {
            String arg = original.get(i);
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            if (NOT_PASSED_ON.contains(name)) {
                i += arg.contains("=") ? 0 : 1; // its value too
                continue;
            }
            command.add(arg);
        }
        command.addAll(List.of("--work-dir", work.toString(), "--job-process", bootstrapServers));
        return command;
    }

    private static Process start(List<String> command) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** Copies the process's output into {@code log}, keeping the newest progress it reports in {@code taken}. */
    private static Thread watch(Process process, Path log, AtomicLong taken) {
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader out = new BufferedReader(
                                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                            PrintWriter file = new PrintWriter(Files.newBufferedWriter(
                                    log,
                                    StandardCharsets.UTF_8,
                                    StandardOpenOption.CREATE,
                                    StandardOpenOption.APPEND))) {
                        String line;
                        while ((line = out.readLine()) != null) {
                            if (line.startsWith(PROGRESS)) {
                                taken.set(Long.parseLong(
                                        line.substring(PROGRESS.length()).trim()));
                            } else {
                                file.println(line);
                            }
                        }
                    } catch (IOException | NumberFormatException ended) {
                        // the process is gone (killed): nothing more to read
                    }
                },
                "job-process-output");
        reader.setDaemon(true);
        reader.start();
        return reader;
    }
}
