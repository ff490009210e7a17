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
package io.nearline.jobs.cluster;

import io.nearline.jobs.kit.processes.LogTail;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The processes of a local cluster: started detached (their own session, output to
 * {@code DIR/logs/NAME.log}), each marked with {@code -Dnearline.cluster=DIR} so that {@code down}
 * stops exactly the processes this cluster started, by pid, and never a reused pid.
 */
public final class Daemons {

    // The processes this JVM started, for their exit status when one dies while starting.
    private static final Map<Long, Process> LAUNCHED = new ConcurrentHashMap<>();

    private Daemons() {}

    public static String marker(Path dir) {
        return "-Dnearline.cluster=" + dir.toAbsolutePath().normalize();
    }

    /**
     * Starts {@code command} (already wrapped for the namespace) and returns its pid. The command is
     * kept in {@code DIR/logs/NAME.command} so that {@link #restart} can start the same process again.
     */
    public static long start(Path dir, String name, List<String> command) {
        try {
            Path logs = Files.createDirectories(dir.resolve("logs"));
            Files.write(logs.resolve(name + ".command"), command, StandardCharsets.UTF_8);
            return launch(command, ProcessBuilder.Redirect.to(log(dir, name).toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts the daemon {@code name} of the cluster in {@code dir} again with the command it was first
     * started with (its log goes on), records the new pid in the cluster file, and returns it. For
     * drills that restart a broker or a node that was stopped.
     */
    public static long restart(Path dir, String name) {
        try {
            List<String> command = Files.readAllLines(log(dir, name).resolveSibling(name + ".command"));
            long pid = launch(
                    command, ProcessBuilder.Redirect.appendTo(log(dir, name).toFile()));
            ClusterFile.read(dir).withProcess(name, pid).write();
            return pid;
        } catch (IOException e) {
            throw new ClusterException("cannot restart " + name + " of the cluster in " + dir + ": " + e.getMessage());
        }
    }

    private static long launch(List<String> command, ProcessBuilder.Redirect log) throws IOException {
        Process p = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(log)
                .redirectErrorStream(true)
                .start();
        LAUNCHED.put(p.pid(), p);
        return p.pid();
    }

    /** How a process this JVM started ended, e.g. " (exit status 137: killed by signal 9)", or "" if unknown. */
    static String exitStatus(long pid) {
        Process p = LAUNCHED.get(pid);
        try {
            if (p == null || !p.waitFor(1, TimeUnit.SECONDS)) { // gone, but maybe not reaped yet
                return "";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
        int status = p.exitValue();
        return " (exit status " + status + (status > 128 ? ": killed by signal " + (status - 128) : "") + ")";
    }

    public static Path log(Path dir, String name) {
        return dir.resolve("logs").resolve(name + ".log");
    }

    /** The first line of the daemon's log that starts with {@code prefix}, without it (its ready line). */
    public static Optional<String> readyLine(Path dir, String name, String prefix) {
        try {
            Path log = log(dir, name);
            if (!Files.exists(log)) {
                return Optional.empty();
            }
            return Files.readAllLines(log, StandardCharsets.ISO_8859_1).stream()
                    .filter(l -> l.startsWith(prefix))
                    .map(l -> l.substring(prefix.length()).strip())
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Waits until {@code ready}, failing (with the log's tail) if the process dies or time runs out. */
    public static void await(Path dir, String name, long pid, Duration timeout, BooleanSupplier ready) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ready.getAsBoolean()) {
            if (!alive(pid, dir)) {
                throw ClusterException.failed(
                        name + " exited while starting" + exitStatus(pid) + "; its log ends:\n" + tail(dir, name));
            }
            if (System.nanoTime() > deadline) {
                throw ClusterException.failed(
                        name + " not ready after " + timeout.toSeconds() + " s; its log ends:\n" + tail(dir, name));
            }
            sleep(200);
        }
    }

    static String tail(Path dir, String name) {
        return LogTail.of(log(dir, name), line -> true);
    }

    /** Whether something accepts connections at {@code host:port} (2 s to answer). */
    public static boolean listening(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        try (Socket s = new Socket()) {
            s.connect(
                    new InetSocketAddress(
                            hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))),
                    2000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether {@code pid} is a live process of the cluster in {@code dir}. */
    public static boolean alive(long pid, Path dir) {
        Path proc = Path.of("/proc", Long.toString(pid));
        // A daemon execs twice on its way up (setsid, ip netns exec, java). While the kernel loads the
        // next program, its cmdline reads empty or cut short (no closing NUL): read it again rather
        // than call a starting daemon dead. Half a second of that, and what is there decides.
        for (int read = 1; ; read++) {
            byte[] cmdline;
            try {
                cmdline = Files.readAllBytes(proc.resolve("cmdline"));
            } catch (IOException e) {
                return false;
            }
            boolean whole = cmdline.length > 0 && cmdline[cmdline.length - 1] == 0;
            if (whole || read == 100) {
                String args = new String(cmdline, StandardCharsets.UTF_8).replace('\0', ' ');
                return args.contains(marker(dir) + " ") || args.endsWith(marker(dir));
            }
            if (ended(proc)) {
                return false;
            }
            sleep(5);
        }
    }

    /** Whether the process has ended (a zombie not yet reaped, or gone): its cmdline reads empty for good. */
    private static boolean ended(Path proc) {
        try {
            String stat = Files.readString(proc.resolve("stat"), StandardCharsets.ISO_8859_1);
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state == 'Z' || state == 'X';
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /**
     * Where a process that a deploy started beside the cluster (the verifier) keeps its pid, so that
     * {@code jobs stop} and {@code cluster down} stop exactly it.
     */
    public static Path servicePid(Path dir, String name) {
        return dir.resolve("services").resolve(name + ".pid");
    }

    /** The processes deploys started beside the cluster, by name: the pids their files hold. */
    public static Map<String, Long> services(Path dir) {
        Map<String, Long> out = new java.util.TreeMap<>();
        try (var files = Files.list(dir.resolve("services"))) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (name.endsWith(".pid")) {
                    out.put(
                            name.substring(0, name.length() - ".pid".length()),
                            Long.parseLong(Files.readString(f).strip()));
                }
            }
        } catch (java.nio.file.NoSuchFileException none) {
            return out;
        } catch (IOException | NumberFormatException e) {
            throw new ClusterException("cannot read the services of " + dir + ": " + e.getMessage());
        }
        return out;
    }

    /** Prints each process with its pid and whether it runs; returns whether all do. */
    public static boolean report(Path dir, Map<String, Long> processes) {
        boolean allUp = true;
        for (Map.Entry<String, Long> p : processes.entrySet()) {
            boolean alive = alive(p.getValue(), dir);
            allUp &= alive;
            System.out.printf("  %-16s pid %-8d %s%n", p.getKey(), p.getValue(), alive ? "running" : "NOT RUNNING");
        }
        return allUp;
    }

    /** Stops the cluster's processes: TERM, then KILL what is left after {@code grace}. Returns those stopped. */
    public static List<String> stop(Path dir, Map<String, Long> processes, Duration grace) {
        List<String> stopped = new ArrayList<>();
        processes.forEach((name, pid) -> {
            if (alive(pid, dir)) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
                stopped.add(name);
            }
        });
        awaitEnd(dir, processes, grace);
        processes.values().stream().filter(pid -> alive(pid, dir)).forEach(pid -> ProcessHandle.of(pid)
                .ifPresent(ProcessHandle::destroyForcibly));
        // until they are gone: a cluster started next binds the same ports
        awaitEnd(dir, processes, Duration.ofSeconds(10));
        processes.values().forEach(LAUNCHED::remove);
        return stopped;
    }

    private static void awaitEnd(Path dir, Map<String, Long> processes, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (processes.values().stream().anyMatch(pid -> alive(pid, dir)) && System.nanoTime() < deadline) {
            sleep(200);
        }
    }

    /**
     * Processes the cluster's NodeManager started (YARN containers: application masters and job
     * containers) that outlived it: those working in the cluster's container directories.
     */
    public static List<String> stopContainers(Path dir, Duration grace) {
        Path containers = dir.toAbsolutePath().normalize().resolve("yarn/nm-local");
        List<String> stopped = new ArrayList<>();
        long deadline = System.nanoTime() + grace.toNanos();
        // again until none is left: a dying application master may still have started one more
        for (List<ProcessHandle> left = inside(containers); !left.isEmpty(); left = inside(containers)) {
            for (ProcessHandle p : left) {
                stopped.add("container process " + p.pid());
                if (System.nanoTime() < deadline) {
                    p.destroy();
                } else {
                    p.destroyForcibly();
                }
            }
            sleep(300);
        }
        return stopped.stream().distinct().toList();
    }

    private static List<ProcessHandle> inside(Path containers) {
        return ProcessHandle.allProcesses()
                .filter(ProcessHandle::isAlive)
                .filter(p -> {
                    try {
                        return Path.of("/proc", Long.toString(p.pid()), "cwd")
                                .toRealPath()
                                .startsWith(containers);
                    } catch (IOException | SecurityException e) {
                        return false;
                    }
                })
                .toList();
    }

    /** Sleeps; an interrupt ends the command ({@link ClusterException}). */
    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted");
        }
    }
}
