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
package io.nearline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.testkit.Printed;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code check} gives its verdict on evidence only: nothing compared is never OK, and Debezium logs are read. */
class CheckCommandTest {

    /** Tests run in cli; the scenario files live with the reference run. */
    private static final Path SCENARIOS = Path.of("../local-cluster/cdc-reference/src/test/resources/scenarios/cdc")
            .toAbsolutePath();

    @TempDir
    Path dir;

    /** check --format debezium of the mixed Debezium scenario against {@code state}. */
    private static Printed checkDebeziumMixed(Path state) {
        return check(
                "--format",
                "debezium",
                "--events",
                SCENARIOS.resolve("debezium-mixed.jsonl").toString(),
                "--state",
                state.toString());
    }

    private static Printed check(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of("check"));
        all.addAll(List.of(args));
        return CliRun.of(all.toArray(String[]::new));
    }

    @Test
    void anEmptyChangeLogAgainstAnEmptyStateChecksNothingAndFails() throws Exception {
        Path events = Files.writeString(dir.resolve("events.jsonl"), "");
        Path state = Files.writeString(dir.resolve("state.jsonl"), "");

        Printed run = check("--events", events.toString(), "--state", state.toString());

        assertEquals(1, run.exit(), run.out());
        assertTrue(run.out().contains("NOTHING CHECKED"), run.out());
    }

    @Test
    void aDebeziumLogIsReadWithFormatDebeziumAndMatchesItsState() {
        Printed run = checkDebeziumMixed(SCENARIOS.resolve("debezium-mixed.state.jsonl"));

        assertEquals(0, run.exit(), run.out());
        assertTrue(run.out().contains("keys checked 8"), run.out());
    }

    @Test
    void aDebeziumLogReadAsOurTextFormChecksNothingAndSaysWhy() throws Exception {
        Path state = Files.writeString(dir.resolve("state.jsonl"), "");

        Printed run =
                check("--events", SCENARIOS.resolve("debezium-mixed.jsonl").toString(), "--state", state.toString());

        assertEquals(1, run.exit(), run.out());
        assertTrue(run.out().contains("--format debezium"), run.out());
    }

    @Test
    void aStateThatLostALiveRowDiverges() throws Exception {
        List<String> lines = Files.readAllLines(SCENARIOS.resolve("debezium-mixed.state.jsonl"));
        Path state = Files.write(
                dir.resolve("state.jsonl"),
                lines.stream().filter(l -> !l.startsWith("{\"key\":\"1\"")).toList());

        Printed run = checkDebeziumMixed(state);

        assertEquals(1, run.exit(), run.out());
        assertTrue(run.out().contains("DIVERGED"), run.out());
        assertTrue(run.out().contains("MISSING"), run.out());
    }

    /** The state a job ordering PostgreSQL changes by their own LSN leaves: the raced key deleted. */
    @Test
    void aStateThatKeptTheRacedDeleteDiverges() throws Exception {
        List<String> lines = Files.readAllLines(SCENARIOS.resolve("debezium-mixed.state.jsonl"));
        Path state = Files.write(
                dir.resolve("state.jsonl"),
                lines.stream()
                        .map(l -> l.startsWith("{\"key\":\"7\"")
                                ? "{\"key\":\"7\",\"scn\":682464,\"schemaVersion\":0,\"tombstone\":true}"
                                : l)
                        .toList());

        Printed run = checkDebeziumMixed(state);

        assertEquals(1, run.exit(), run.out());
        assertTrue(run.out().contains("DIVERGED"), run.out());
    }
}
