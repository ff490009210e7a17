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
package io.nearline.localcluster.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.localcluster.joinreference.JoinOutputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checks a bench makes of what it timed: each passes on the right result and fails on a wrong one. */
class BenchChecksTest {

    @TempDir
    Path dir;

    private static final String EVENT_1 =
            "{\"table\":\"profile\",\"key\":\"a\",\"scn\":1,\"op\":\"UPSERT\",\"schemaVersion\":1,\"payload\":\"x\"}";
    private static final String EVENT_2 =
            "{\"table\":\"profile\",\"key\":\"a\",\"scn\":2,\"op\":\"UPSERT\",\"schemaVersion\":1,\"payload\":\"y\"}";
    private static final String STATE_AT_2 =
            "{\"key\":\"a\",\"scn\":2,\"schemaVersion\":1,\"tombstone\":false,\"payload\":\"y\"}";
    private static final String STATE_AT_1 =
            "{\"key\":\"a\",\"scn\":1,\"schemaVersion\":1,\"tombstone\":false,\"payload\":\"x\"}";

    @Test
    void aStateIsCheckedAgainstTheChangeLog() throws Exception {
        Path events = Files.write(dir.resolve("events.jsonl"), List.of(EVENT_1, EVENT_2));
        assertTrue(Benches.stateMatches("e", List.of(events), Files.write(dir.resolve("ok"), List.of(STATE_AT_2))));
        assertFalse(
                Benches.stateMatches("e", List.of(events), Files.write(dir.resolve("old"), List.of(STATE_AT_1))),
                "a key left on an old version");
        assertFalse(
                Benches.stateMatches("e", List.of(events), Files.write(dir.resolve("none"), List.of())),
                "a key missing");
    }

    @Test
    void aLiveRunThatNeverCaughtUpDoesNotVerify() {
        assertFalse(
                Benches.keptUp("flink", false, false), "latencies of a job that never caught up measure its backlog");
        assertFalse(Benches.keptUp("flink", true, false), "caught up once, then fell behind: the latch is not enough");
        assertTrue(Benches.keptUp("flink", true, true));
    }

    @Test
    void joinOutputsAreCheckedAgainstTheReference() throws Exception {
        JoinOutputs reference = new JoinOutputs(List.of("j1", "j2"), List.of("o1"), List.of());
        Path out = Files.createDirectories(dir.resolve("out"));
        Files.write(out.resolve("joined.jsonl"), List.of("j2", "j1"));
        Files.write(out.resolve("orphans.jsonl"), List.of("o1"));
        Files.write(out.resolve("late.jsonl"), List.of());
        assertTrue(Benches.outputsMatch("e", reference, out), "the same lines in another order");
        Files.write(out.resolve("joined.jsonl"), List.of("j1"));
        assertFalse(Benches.outputsMatch("e", reference, out), "a joined event lost");
    }

    @Test
    void aBlindRunVerifiesOnlyIfItWroteBlindAndEndedAtTheChangeLog() throws Exception {
        ObjectMapper json = new ObjectMapper();
        Path events = Files.write(dir.resolve("events.jsonl"), List.of(EVENT_1, EVENT_2));
        Path atTwo = Files.write(dir.resolve("blind-ok"), List.of(STATE_AT_2));
        ObjectNode wroteBlind = json.createObjectNode().put("blindUpserts", 2);
        assertTrue(Benches.blindVerified("e", wroteBlind, List.of(events), atTwo));
        assertFalse(
                Benches.blindVerified("e", json.createObjectNode().put("blindUpserts", 0), List.of(events), atTwo),
                "a run that counted no blind upserts wrote through the ordered write: not the baseline");
        assertFalse(
                Benches.blindVerified(
                        "e", wroteBlind, List.of(events), Files.write(dir.resolve("blind-old"), List.of(STATE_AT_1))),
                "a blind write that a replay took back to an old version");
    }

    @Test
    void aRatioToAnUnverifiedRunDoesNotVerify() {
        ObjectMapper json = new ObjectMapper();
        ObjectNode member = json.createObjectNode().put("verified", true);
        Benches.putAgainst(member, "blind", 90, 100, true);
        assertEquals(0.9, member.path("againstRatio").asDouble());
        assertEquals("blind", member.path("against").path("name").asText());
        assertEquals(100, member.path("against").path("perSec").asLong());
        assertTrue(member.path("verified").asBoolean());
        ObjectNode other = json.createObjectNode().put("verified", true);
        Benches.putAgainst(other, "blind", 90, 100, false);
        assertFalse(other.path("verified").asBoolean(), "the other run did not verify");
    }

    @Test
    void roundsReportTheMediansAndEveryRound() {
        ObjectMapper json = new ObjectMapper();
        ObjectNode member = json.createObjectNode().put("verified", true);
        Benches.putAgainst(member, "blind", 100, 200, true);
        Benches.putRounds(member, "writtenPerSec", List.of(100L, 90L, 120L), List.of(200L, 100L, 110L), true);
        assertEquals(100, member.path("writtenPerSec").asLong(), "the median, not the first round");
        assertEquals(110, member.path("against").path("perSec").asLong());
        assertEquals(0.9, member.path("againstRatio").asDouble(), "the median of the rounds' ratios (0.5, 0.9, 1.091)");
        assertEquals(3, member.path("rounds").size());
        assertEquals(90, member.path("rounds").get(1).path("writtenPerSec").asLong());
        Benches.putRounds(member, "writtenPerSec", List.of(1L), List.of(1L), false);
        assertFalse(member.path("verified").asBoolean(), "a round that did not verify");
        assertEquals(2.5, Benches.median(List.of(4, 1, 2, 3)));
    }

    @Test
    void moreThanOneRoundNeedsAnAlternative() {
        BenchRunOptions options = new BenchRunOptions(2);
        options.rounds = 3;
        options.requireRounds("blind");
        assertThrows(IllegalArgumentException.class, () -> options.requireRounds(null));
        options.rounds = 0;
        assertThrows(IllegalArgumentException.class, () -> options.requireRounds("blind"));
    }

    @Test
    void againstIsBlindOnFlinkAndSamzaOnly() {
        Benches.requireBlind("blind", "cdc", List.of("flink", "samza"));
        assertThrows(IllegalArgumentException.class, () -> Benches.requireBlind("plain", "cdc", List.of("flink")));
        assertThrows(IllegalArgumentException.class, () -> Benches.requireBlind("blind", "cdc", List.of("connect")));
    }

    @Test
    void enginesThatEndDifferentlyFailTheBench() throws Exception {
        ObjectMapper json = new ObjectMapper();
        Path a = Files.write(dir.resolve("a"), List.of(STATE_AT_2));
        Path b = Files.write(dir.resolve("b"), List.of(STATE_AT_2));
        Map<String, ObjectNode> members = new LinkedHashMap<>();
        members.put("a", json.createObjectNode().put("verified", true));
        members.put("b", json.createObjectNode().put("verified", true));
        Path summary = dir.resolve("summary.json");
        assertEquals(0, Benches.finish("t", members, e -> e.equals("a") ? a : b, summary));
        assertTrue(json.readTree(summary.toFile()).path("b").path("verified").asBoolean());
        assertTrue(
                json.readTree(summary.toFile())
                                .path("a")
                                .path("machineCpuMiBPerSec")
                                .asLong()
                        > 0,
                "the machine's reference figure of the same run");

        Files.write(b, List.of(STATE_AT_1));
        assertEquals(1, Benches.finish("t", members, e -> e.equals("a") ? a : b, summary));
        assertFalse(json.readTree(summary.toFile()).path("a").path("verified").asBoolean(), "both marked");
    }
}
