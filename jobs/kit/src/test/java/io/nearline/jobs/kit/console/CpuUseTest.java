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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Whose CPU is whose: the job's threads are those started after the mark, the others are not. */
class CpuUseTest {

    @Test
    void threadsStartedAfterTheMarkAreTheJobsAndThoseFromBeforeAreNot() throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch measured = new CountDownLatch(1);
        Burner before = new Burner(go, measured, 400);
        before.start();
        CpuUse cpu = CpuUse.beforeJob(null);
        Burner job = new Burner(go, measured, 300);
        job.start();

        CpuUse.Snapshot from = cpu.snapshot();
        go.countDown();
        before.burnt.await();
        job.burnt.await();
        CpuUse.Snapshot to = cpu.snapshot();
        measured.countDown();

        CpuUse.Cores cores = cpu.between(from, to);
        double seconds = (to.nanoTime() - from.nanoTime()) / 1e9;
        double jobSeconds = cores.jobThreads() * seconds;
        double otherSeconds = cores.otherThreads() * seconds;
        // the job's burner alone (0.3 s); had the one from before the mark been counted, 0.7 s or more
        assertTrue(jobSeconds >= 0.29 && jobSeconds < 0.6, "job threads' CPU: " + jobSeconds + " s");
        assertTrue(otherSeconds >= 0.39, "the threads from before the mark: " + otherSeconds + " s");
        assertEquals(0.0, cores.brokerProcess(), "no broker process given");
        assertTrue(cores.jvm() >= 0);
        before.join();
        job.join();
    }

    @Test
    void aBrokerInAProcessOfItsOwnIsMeasuredFromThatProcess() throws Exception {
        // a bounded busy loop, then a wait: the process is still there when the second snapshot is taken
        Process busy = new ProcessBuilder(
                        "sh", "-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done; echo done; sleep 30")
                .start();
        try {
            CpuUse cpu = CpuUse.beforeJob(busy.toHandle());
            CpuUse.Snapshot from = cpu.snapshot();
            assertEquals("done", new String(busy.getInputStream().readNBytes(4)));
            CpuUse.Snapshot to = cpu.snapshot();
            CpuUse.Cores cores = cpu.between(from, to);
            assertTrue(cores.brokerProcess() > 0, "the broker process's CPU: " + cores);
        } finally {
            busy.destroy();
            busy.waitFor();
        }
    }

    /** Burns a given CPU time once told to, then stays alive until the measurement is over. */
    private static final class Burner extends Thread {
        final CountDownLatch burnt = new CountDownLatch(1);
        private final CountDownLatch go;
        private final CountDownLatch measured;
        private final long cpuMillis;

        Burner(CountDownLatch go, CountDownLatch measured, long cpuMillis) {
            this.go = go;
            this.measured = measured;
            this.cpuMillis = cpuMillis;
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                go.await();
                long until = cpuNanos() + cpuMillis * 1_000_000;
                long x = 0;
                while (cpuNanos() < until) {
                    x += Long.numberOfTrailingZeros(x + 1);
                }
                burnt.countDown();
                measured.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private static long cpuNanos() {
            return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        }
    }
}
