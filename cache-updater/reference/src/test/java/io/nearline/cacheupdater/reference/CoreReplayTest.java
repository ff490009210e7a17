package io.nearline.cacheupdater.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.testkit.InMemoryCacheStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The core alone against the oracle: the reference every engine is then compared to. */
class CoreReplayTest {

    @TempDir
    Path dir;

    @Test
    void everyScenarioEndsAtTheOraclesState() throws Exception {
        for (String name : Scenarios.CDC) {
            Path file = Scenarios.copy(name, dir);
            CoreReplay.Result result = CoreReplay.run(
                    ReplayInput.read(List.of(file)), new InMemoryCacheStore(), WriterSettings.defaults(), 1024 * 1024);
            assertEquals(Scenarios.expectedState(file), result.state(), name);
            assertEquals(
                    Scenarios.expectedDeadLetters(file),
                    result.deadLetters().size(),
                    name + ": " + result.deadLetters());
        }
    }

    @Test
    void badLinesAreDeadLetteredWithReasonsAndTheRunGoesOn() throws Exception {
        Path file = Scenarios.copy("edge-cases.jsonl", dir);
        CoreReplay.Result result = CoreReplay.run(
                ReplayInput.read(List.of(file)), new InMemoryCacheStore(), WriterSettings.defaults(), 1024 * 1024);
        String letters = String.join("\n", result.deadLetters());
        for (String reason : List.of("UNDECODABLE", "MISSING_KEY", "BAD_SCN", "UNKNOWN_OP", "MISSING_PAYLOAD")) {
            assertTrue(letters.contains("\"reason\":\"" + reason + "\""), reason + " missing in\n" + letters);
        }
        assertTrue(
                result.state().stream().anyMatch(l -> l.contains("after-the-bad-lines")),
                "processing stopped at bad lines");
        assertEquals(6, result.summary().deadLettered());
    }
}
