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
package io.nearline.localcluster.kit.runs;

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.metrics.Metrics;
import io.nearline.jobs.kit.processes.Home;
import io.nearline.jobs.kit.processes.LogTail;
import io.nearline.localcluster.kit.options.LocalRunOptions;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The crash test of a replay ({@code --kill-at F}): the job runs in a JVM of its own (the same runner,
 * told by a hidden option to run only the job against this replay's broker), which relays the job's
 * counters to the replay; when a fraction F of the input is taken the process is killed with SIGKILL —
 * no shutdown hook, no last checkpoint — and started again, to resume from its last checkpoint
 * (Flink) or commit (Samza) and run to the end. The replay's counters are the sums over both
 * processes: what the job did again after the restart is counted again.
 */
public final class JobProcess {

    /** How the job's process reports its counters on its standard output: {@code name=value,...}. */
    static final String COUNTERS = "nearline-job-counters ";

    /** Options of the replay that the job's process must not see (it gets its own work dir and mode). */
    private static final Set<String> NOT_PASSED_ON =
            Set.of("--kill-at", "--work-dir", "--summary-json", "--job-process");

    private static final long TIMEOUT_MINUTES = 10;

    private JobProcess() {}

    /** In the job's process: prints the job's counters every 100 ms, and once more when closed. */
    public static AutoCloseable reportCounters(InMemoryMetrics metrics) {
        Thread reporter = new Thread(
                () -> {
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            printCounters(metrics);
                            Thread.sleep(100);
                        }
                    } catch (InterruptedException stopped) {
                        Thread.currentThread().interrupt();
                    }
                },
                "job-counters");
        reporter.setDaemon(true);
        reporter.start();
        return () -> {
            reporter.interrupt();
            reporter.join();
            printCounters(metrics); // the final counts, after the job ended
        };
    }

    private static void printCounters(InMemoryMetrics metrics) {
        StringBuilder line = new StringBuilder(COUNTERS);
        // labelled series (by table, bucket) are Prometheus's, not the run's counts
        metrics.snapshot().entrySet().stream()
                .filter(counter -> !Metrics.isLabelled(counter.getKey()))
                .forEach(counter -> line.append(counter.getKey())
                        .append('=')
                        .append(counter.getValue())
                        .append(','));
        System.out.println(line);
        System.out.flush();
    }

    /**
     * What a crash test starts: the job of {@code replay} (the replay command, started again in the
     * job's process), with {@code moreArgs}, the run's options and its work directory.
     */
    public record Spec(CommandSpec replay, List<String> moreArgs, LocalRunOptions run, Path work) {}

    /**
     * Runs the job of {@code replay} (the replay command, started again in the job's process) in a
     * process of its own, kills it -9 once {@code taken} (read from {@code counters}, where the job's
     * counters arrive) reaches {@code run.killAt} of the {@code total} input records, starts it again
     * with {@code --restore}, and returns that one's own final counters when it has finished the
     * input. {@code moreArgs} go to both processes (what the replay chose when it started: a cache's
     * address). Throws when a process fails or does not finish in time.
     */
    public static Map<String, Long> runKilledAt(
            Spec spec, String bootstrapServers, long total, InMemoryMetrics counters, LongSupplier taken)
            throws IOException, InterruptedException {
        LocalRunOptions run = spec.run();
        Path work = spec.work();
        List<String> command = command(spec.replay(), work, bootstrapServers);
        command.addAll(spec.moreArgs());
        long target = Math.max(1, (long) Math.ceil(run.killAt * total));
        Process first = start(command);
        Thread reader = watch(first, work.resolve("job-process-1.log"), counters, new HashMap<>());
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES);
        while (taken.getAsLong() < target && first.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        if (!first.isAlive()) {
            reader.join(5_000); // the log's last lines
            throw new IllegalStateException("the job's process ended (exit " + first.exitValue() + ") before " + target
                    + " of " + total + " input records were taken; " + work.resolve("job-process-1.log")
                    + " ends:\n" + LogTail.of(work.resolve("job-process-1.log"), line -> !line.isBlank()));
        }
        if (taken.getAsLong() < target) {
            first.destroyForcibly();
            throw new IllegalStateException("the job took only " + taken.getAsLong() + " of " + total
                    + " input records in " + TIMEOUT_MINUTES + " minutes; see " + work.resolve("job-process-1.log"));
        }
        first.destroyForcibly(); // SIGKILL: what a crash of the machine or the JVM leaves behind
        first.waitFor();
        reader.join(5000);
        System.out.printf(
                "%n  >> killed -9 the job's process (pid %d) after %,d of %,d input records; starting it again%n",
                first.pid(), taken.getAsLong(), total);

        List<String> again = new ArrayList<>(command);
        again.add("--restore");
        Process second = start(again);
        Map<String, Long> secondCounts = new ConcurrentHashMap<>();
        Thread secondReader = watch(second, work.resolve("job-process-2.log"), counters, secondCounts);
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
        return Map.copyOf(secondCounts);
    }

    /** The runner's own command line, this JVM's options and class path, with the job-process options. */
    private static List<String> command(CommandSpec replay, Path work, String bootstrapServers) {
        List<String> command = new ArrayList<>();
        command.add(Home.java());
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

    /**
     * Copies the process's output into {@code log}; the counters it reports are added to
     * {@code counters} as they grow (each process counts from zero), and kept as reported in {@code seen}.
     */
    private static Thread watch(Process process, Path log, InMemoryMetrics counters, Map<String, Long> seen) {
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
                            if (line.startsWith(COUNTERS)) {
                                try {
                                    addGrowth(line.substring(COUNTERS.length()), seen, counters);
                                } catch (NumberFormatException e) { // kept, and the reading goes on
                                    file.println("unreadable counters (" + e.getMessage() + "): " + line);
                                }
                            } else {
                                file.println(line);
                            }
                        }
                    } catch (IOException ended) {
                        // the process is gone (killed): nothing more to read
                    }
                },
                "job-process-output");
        reader.setDaemon(true);
        reader.start();
        return reader;
    }

    /** Adds to {@code counters} what each counter of {@code reported} grew by since {@code seen}. */
    static void addGrowth(String reported, Map<String, Long> seen, InMemoryMetrics counters) {
        for (String pair : reported.split(",")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                String name = pair.substring(0, eq);
                long value = Long.parseLong(pair.substring(eq + 1));
                long before = seen.getOrDefault(name, 0L);
                if (value > before) {
                    counters.counter(name).inc(value - before);
                    seen.put(name, value);
                }
            }
        }
    }
}
