package io.nearline.cacheupdater.samza;

import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.replay.CoreReplay;
import io.nearline.cacheupdater.core.replay.ReplayInput;
import io.nearline.cacheupdater.testkit.InMemoryCacheStore;
import io.nearline.cacheupdater.testkit.OutageStoreProvider;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The conformance scenarios through the real app on Samza's local runner (broker in its own JVM,
 * RocksDB store): final state identical to the core's and to the oracle's, every bad line dead-lettered.
 */
class SamzaConformanceIT {

    static final List<String> SCENARIOS = Scenarios.CDC;

    @TempDir
    Path dir;

    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @ParameterizedTest
    @FieldSource("SCENARIOS")
    void samzaEndsWhereTheCoreEnds(String scenario) throws Exception {
        Path events = Scenarios.copy(scenario, dir);
        Path out = dir.resolve("state.jsonl");
        Path dlq = dir.resolve("dlq.jsonl");
        int code = new CommandLine(new SamzaReplay()).execute("--events", events.toString(), "--out", out.toString(),
                "--dlq-out", dlq.toString(), "--work-dir", dir.resolve("work").toString(), "--partitions", "3",
                "--kafka-jar", System.getProperty("nearline.kafka.jar"));
        assertEquals(0, code);

        List<String> core = CoreReplay.run(ReplayInput.read(List.of(events)), new InMemoryCacheStore(),
                WriterSettings.defaults(), 1024 * 1024).state();
        assertEquals(Scenarios.expectedState(events), core, "core vs oracle");
        assertEquals(core, Files.readAllLines(out), "samza vs core");
        assertEquals(Scenarios.expectedDeadLetters(events), Files.readAllLines(dlq).size(), "dead letters");
    }

    /**
     * The store is down for the first seconds of the job: every call fails, longer than a write's own
     * retries last. The job must hold on to those writes and wait the outage out (not pulling more
     * input meanwhile) and end exactly where the core ends: nothing dropped.
     */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @org.junit.jupiter.api.Test
    void aStoreOutageIsWaitedOutAndNothingIsLost() throws Exception {
        Path events = Scenarios.copy("scrambled.jsonl", dir);
        Path out = dir.resolve("state.jsonl");
        OutageStoreProvider.reset();
        int code = new CommandLine(new SamzaReplay()).execute("--events", events.toString(), "--out", out.toString(),
                "--work-dir", dir.resolve("work").toString(), "--store", "outage",
                "--set", "test.outage.delegate=rocksdb", "--set", "test.outage.duration=3s",
                "--set", "write.outage.max-pause=500ms", "--set", "write.max-attempts=3",
                "--kafka-jar", System.getProperty("nearline.kafka.jar"));
        assertEquals(0, code);
        assertTrue(OutageStoreProvider.failedCalls() > 0, "the outage never hit the job");
        assertTrue(SamzaMetrics.local().count("write.retries.unavailable") > 0, "no retries were counted");
        // writes outlived their own retries: what saved them is the job holding on to them
        assertTrue(SamzaMetrics.local().count("write.failed") > 0, "the outage was shorter than the writer's retries");
        assertEquals(Scenarios.expectedState(events), Files.readAllLines(out), "state after the outage");
    }
}
