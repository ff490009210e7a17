package io.nearline.localcluster.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
