package io.nearline.cacheupdater.flink;

import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.replay.CoreReplay;
import io.nearline.cacheupdater.core.replay.ReplayInput;
import io.nearline.cacheupdater.testkit.InMemoryCacheStore;
import io.nearline.cacheupdater.testkit.Scenarios;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The conformance scenarios through the real job on Flink (embedded broker, MiniCluster, RocksDB
 * store): final state identical to the core's and to the oracle's, every bad line dead-lettered.
 */
class FlinkConformanceIT {

    static final List<String> SCENARIOS = Scenarios.CDC;

    @TempDir
    Path dir;

    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @ParameterizedTest
    @FieldSource("SCENARIOS")
    void flinkEndsWhereTheCoreEnds(String scenario) throws Exception {
        Path events = Scenarios.copy(scenario, dir);
        Path out = dir.resolve("state.jsonl");
        Path dlq = dir.resolve("dlq.jsonl");
        int code = new CommandLine(new FlinkReplay()).execute("--events", events.toString(), "--out", out.toString(),
                "--dlq-out", dlq.toString(), "--work-dir", dir.resolve("work").toString(), "--partitions", "3");
        assertEquals(0, code);

        List<String> core = CoreReplay.run(ReplayInput.read(List.of(events)), new InMemoryCacheStore(),
                WriterSettings.defaults(), 1024 * 1024).state();
        List<String> flink = Files.readAllLines(out);
        assertEquals(Scenarios.expectedState(events), core, "core vs oracle");
        assertEquals(core, flink, "flink vs core");
        assertEquals(Scenarios.expectedDeadLetters(events), Files.readAllLines(dlq).size(), "dead letters");
    }
}
