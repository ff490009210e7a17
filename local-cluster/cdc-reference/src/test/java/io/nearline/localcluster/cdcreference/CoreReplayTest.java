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
package io.nearline.localcluster.cdcreference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
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
