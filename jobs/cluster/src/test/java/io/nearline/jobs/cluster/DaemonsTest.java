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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DaemonsTest {

    @Test
    void aDaemonThatDiesWhileStartingIsReportedWithItsExitStatusAndLog(@TempDir Path dir) {
        long pid = Daemons.start(dir, "brief", List.of("sh", "-c", "echo cannot bind; exit 3", Daemons.marker(dir)));

        ClusterException e = assertThrows(
                ClusterException.class, () -> Daemons.await(dir, "brief", pid, Duration.ofSeconds(30), () -> false));

        assertTrue(e.getMessage().contains("brief exited while starting (exit status 3)"), e.getMessage());
        assertTrue(e.getMessage().contains("cannot bind"), e.getMessage());
    }

    @Test
    void aDaemonIsAliveAllTheWayThroughTheProgramsItExecsOnItsWayUp(@TempDir Path dir) throws IOException {
        // like setsid, then ip netns exec, then java: one pid, one program after another (here 300),
        // and then it runs until stopped
        String execAgain =
                "n=$1; [ \"$n\" -gt 0 ] && exec sh -c \"$0\" \"$0\" $((n - 1)) \"$2\"; while :; do sleep 0.1; done";
        long pid = Daemons.start(dir, "execs", List.of("sh", "-c", execAgain, execAgain, "300", Daemons.marker(dir)));
        Path cmdline = Path.of("/proc", Long.toString(pid), "cmdline");
        try {
            int looks = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8).contains("\u00000\u0000")
                    && System.nanoTime() < deadline) {
                assertTrue(Daemons.alive(pid, dir), "alive while it execs its next program (look " + looks + ")");
                looks++;
            }
            // how many looks fit into 300 execs depends on the machine's load: enough that some fell between two
            assertTrue(looks > 10, "looked often enough to catch it between two programs: " + looks);
        } finally {
            Daemons.stop(dir, Map.of("execs", pid), Duration.ofSeconds(5)); // never left running, pass or fail
        }
        assertFalse(Daemons.alive(pid, dir), "no longer alive once stopped");
    }

    @Test
    void stopKillsWhatIgnoresTermAndReturnsOnlyOnceItIsGone(@TempDir Path dir) {
        // a daemon that ignores SIGTERM; its sleeps end by themselves
        long pid = Daemons.start(
                dir, "stubborn", List.of("sh", "-c", "trap '' TERM; while :; do sleep 0.1; done", Daemons.marker(dir)));
        assertTrue(Daemons.alive(pid, dir), "started");

        List<String> stopped = Daemons.stop(dir, Map.of("stubborn", pid), Duration.ofMillis(500));

        assertEquals(List.of("stubborn"), stopped);
        assertFalse(Daemons.alive(pid, dir), "gone when stop returns: a cluster started next binds the same ports");
    }
}
