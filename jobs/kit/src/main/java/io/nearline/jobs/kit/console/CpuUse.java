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
package io.nearline.jobs.kit.console;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The CPU a job's own threads use, apart from what shares the machine with it: on two cores a run's
 * events per second are held by everything on them (the broker, the compiler, the collector, the
 * tool's own threads), so a figure per core of the job's own work needs its threads' CPU time.
 *
 * <p>The job's threads are the JVM's threads that did not exist when {@link #beforeJob} was called
 * (the engine starts its task, source, sink and network threads after that; the broker and the tool's
 * threads were already there). The JVM's own threads (the JIT compilers, the garbage collector), which
 * no thread list shows, are the process's CPU time less all its threads'. A broker in a JVM of its own
 * is measured from its process.
 */
public final class CpuUse {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Set<Long> before;
    private final ProcessHandle broker;

    private CpuUse(Set<Long> before, ProcessHandle broker) {
        this.before = before;
        this.broker = broker;
    }

    /** Marks the threads alive now as not the job's; {@code broker} is a broker's own process, or null. */
    public static CpuUse beforeJob(ProcessHandle broker) {
        Set<Long> alive = Arrays.stream(THREADS.getAllThreadIds()).boxed().collect(Collectors.toUnmodifiableSet());
        return new CpuUse(alive, broker);
    }

    /** Every live thread's CPU time, the process's and the broker process's, now. */
    public Snapshot snapshot() {
        Map<Long, Long> threads = new HashMap<>();
        for (long id : THREADS.getAllThreadIds()) {
            long nanos = THREADS.getThreadCpuTime(id);
            if (nanos >= 0) { // -1: the thread ended meanwhile, or CPU time is off
                threads.put(id, nanos);
            }
        }
        return new Snapshot(
                System.nanoTime(), processCpuNanos(ProcessHandle.current()), threads, processCpuNanos(broker));
    }

    /** Cores used between two snapshots, by whom. */
    public Cores between(Snapshot from, Snapshot to) {
        double seconds = (to.nanoTime() - from.nanoTime()) / 1e9;
        long job = 0;
        long others = 0;
        for (Map.Entry<Long, Long> t : to.threads().entrySet()) {
            // a thread that started inside the window counts from zero; one that ended in it is lost
            // (the engines' working threads live as long as the job)
            long used = t.getValue() - from.threads().getOrDefault(t.getKey(), 0L);
            if (before.contains(t.getKey())) {
                others += used;
            } else {
                job += used;
            }
        }
        long process = to.processNanos() - from.processNanos();
        return new Cores(
                job / 1e9 / seconds,
                others / 1e9 / seconds,
                Math.max(0, process - job - others) / 1e9 / seconds,
                broker == null ? 0 : (to.brokerNanos() - from.brokerNanos()) / 1e9 / seconds);
    }

    private static long processCpuNanos(ProcessHandle process) {
        return process == null
                ? 0
                : process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    /** CPU times at one moment, in nanoseconds. */
    public record Snapshot(long nanoTime, long processNanos, Map<Long, Long> threads, long brokerNanos) {}

    /**
     * Cores used over a window: the job's own threads; the threads that were there before it (an
     * in-process broker, the tool's own); the JVM's own (compilers, collector) for the whole process;
     * and a broker in a JVM of its own (0 where the broker runs in this one). The JVM's own is not split
     * further: its compilation time is elapsed time summed over compiler threads, waits for a core
     * included, and came out above the whole of it on two busy cores.
     */
    public record Cores(double jobThreads, double otherThreads, double jvm, double brokerProcess) {}
}
