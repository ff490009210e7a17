package io.nearline.cacheupdater.flink;

import io.nearline.cacheupdater.testkit.DemoSummary;
import io.nearline.common.testkit.Seeds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The whole stack on Flink with a random workload: the source commits, the job, read-repair and a
 * restart race on one cache, the store goes down for a while, and the cache must end equal to the source.
 */
class FlinkDemoIT {

    @TempDir
    Path dir;

    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void threeWritersARestartAndAnOutageLeaveNoDivergence() throws Exception {
        long seed = Seeds.seed();
        Path summary = dir.resolve("summary.json");
        int code = new CommandLine(new FlinkDemo()).execute("--duration", "15s", "--rate", "800", "--keys", "1500",
                "--seed", Long.toString(seed), "--work-dir", dir.resolve("work").toString(), "--summary-json", summary.toString());
        assertEquals(0, code, Seeds.replay(seed));
        DemoSummary.assertConverged(summary, true);
    }
}
