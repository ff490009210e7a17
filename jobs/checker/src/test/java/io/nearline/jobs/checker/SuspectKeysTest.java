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
package io.nearline.jobs.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SuspectKeysTest {

    private static JsonNode row(int qty) {
        return JsonNodeFactory.instance.objectNode().put("qty", qty);
    }

    private static SuspectKeys.Divergent items(String key, JsonNode row) {
        return new SuspectKeys.Divergent("public.items", key, row);
    }

    @Test
    void aKeyInFlightIsNotReportedWhileTheWatermarkIsBelowItsRead() {
        SuspectKeys keys = new SuspectKeys(Duration.ofSeconds(60));
        assertEquals(List.of(), keys.round(List.of(items("1", row(5))), 1_000, 900), "first seen");
        assertEquals(List.of(), keys.round(List.of(items("1", row(5))), 2_000, 999), "the job not durable past 1,000");
        assertEquals(1, keys.inFlight(List.of()));
        assertEquals(List.of(), keys.round(List.of(), 3_000, 2_500), "matches now: it was in flight");
        assertEquals(0, keys.inFlight(List.of()));
    }

    @Test
    void aKeyStillDifferentOnceTheWatermarkPassedItsReadIsConfirmed() {
        SuspectKeys keys = new SuspectKeys(Duration.ofSeconds(60));
        keys.round(List.of(items("1", row(5))), 1_000, 900);
        List<SuspectKeys.Confirmed> confirmed = keys.round(List.of(items("1", row(5))), 2_000, 1_000);
        assertEquals(1, confirmed.size());
        assertEquals("1", confirmed.get(0).key());
        assertEquals(1_000, confirmed.get(0).sinceMillis());
        assertTrue(
                confirmed.get(0).why().contains("durable past the read"),
                confirmed.get(0).why());
    }

    @Test
    void aRowChangedSinceStartsAgainAndAStandingWatermarkFallsBackToTheAllowance() {
        SuspectKeys keys = new SuspectKeys(Duration.ofSeconds(60));
        keys.round(List.of(items("1", row(5))), 1_000, 0);
        assertEquals(List.of(), keys.round(List.of(items("1", row(6))), 2_000, 1_500), "a newer row: read again");
        assertEquals(List.of(), keys.round(List.of(items("1", row(6))), 60_000, 1_500), "59 s, watermark behind");
        List<SuspectKeys.Confirmed> late = keys.round(List.of(items("1", row(6))), 62_000, 1_500);
        assertEquals(1, late.size(), "60 s and more: a change the job never received");
        assertTrue(late.get(0).why().contains("past the allowance"), late.get(0).why());
        List<SuspectKeys.Confirmed> deleted = new SuspectKeys(Duration.ZERO).round(List.of(items("2", null)), 5_000, 0);
        assertEquals(1, deleted.size(), "a row deleted in the database and live in the cache, no allowance");
    }

    /** A round that read a slice of the tables leaves the suspects it did not read as they were. */
    @Test
    void aSuspectOutsideTheRoundsSliceIsKeptUntilItIsReadAgain() {
        SuspectKeys keys = new SuspectKeys(Duration.ofSeconds(60));
        keys.round(List.of(items("1", row(5)), items("2", row(6))), 1_000, 0);
        // the next slice read key 2 only, and it matched: key 1 is still suspect, key 2 was in flight
        assertEquals(List.of(), keys.round(List.of(), k -> k.equals("2"), 30_000, 0));
        assertEquals(java.util.Map.of("1", "public.items"), keys.suspects());
        // read again past the allowance, unchanged: confirmed from its first read
        List<SuspectKeys.Confirmed> confirmed = keys.round(List.of(items("1", row(5))), k -> true, 61_000, 0);
        assertEquals(1, confirmed.size(), confirmed.toString());
        assertEquals(1_000, confirmed.get(0).sinceMillis());
        // control: a round that reads every key and finds key 1 matching forgets it
        assertEquals(List.of(), keys.round(List.of(), k -> true, 62_000, 0));
        assertEquals(java.util.Map.of(), keys.suspects());
    }
}
