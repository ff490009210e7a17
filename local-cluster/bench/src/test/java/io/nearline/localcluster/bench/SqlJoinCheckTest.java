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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.localcluster.joinreference.JoinOutputs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The SQL baseline's check: it passes where only lateness differs and fails on a join that went wrong. */
class SqlJoinCheckTest {

    private static final JoinOutputs ORACLE = new JoinOutputs(
            List.of(
                    "{\"requestId\":\"r1\",\"fragments\":[{\"node\":\"a\"},{\"node\":\"b\"}]}",
                    "{\"requestId\":\"r4\",\"fragments\":[]}"),
            List.of("{\"requestId\":\"r2\",\"nodes\":[\"c\"]}"),
            List.of(
                    "{\"requestId\":\"r1\",\"kind\":\"fragment\",\"node\":\"z\",\"ts\":1,\"reason\":\"BEHIND_PARTITION\"}",
                    "{\"requestId\":\"r3\",\"kind\":\"broker\",\"ts\":1,\"reason\":\"BEHIND_PARTITION\"}",
                    "{\"requestId\":\"r3\",\"kind\":\"fragment\",\"node\":\"d\",\"ts\":1,\"reason\":\"BEHIND_PARTITION\"}"));

    private static String row(String id, boolean joined, String nodes) {
        return "{\"requestId\":\"" + id + "\",\"joined\":" + joined + ",\"nodes\":\"" + nodes + "\",\"fanout\":2,"
                + "\"lastArrived\":\"2026-11-29T06:00:00.000Z\",\"emitted\":\"2026-11-29T06:00:00.250Z\"}";
    }

    @Test
    void theSameRequestsAndNodesMatch() {
        SqlJoinCheck.Result r = SqlJoinCheck.check(ORACLE, List.of(row("r1", true, "b,a"), row("r2", false, "c")));
        assertTrue(r.matches(), r.mismatches().toString());
        assertEquals(1, r.withoutFragments(), "the broker event with no fragment is left out, counted");
    }

    @Test
    void whatTheOracleCalledLateMayBeJoined() {
        SqlJoinCheck.Result r = SqlJoinCheck.check(
                ORACLE, List.of(row("r1", true, "a,b,z"), row("r2", false, "c"), row("r3", true, "d")));
        assertTrue(r.matches(), r.mismatches().toString());
    }

    @Test
    void aLostFragmentAnExtraOneOrAWrongVerdictFail() {
        assertFalse(
                SqlJoinCheck.check(ORACLE, List.of(row("r1", true, "a"), row("r2", false, "c")))
                        .matches(),
                "a fragment lost");
        assertFalse(
                SqlJoinCheck.check(ORACLE, List.of(row("r1", true, "a,b,y"), row("r2", false, "c")))
                        .matches(),
                "a node the oracle never had");
        assertFalse(
                SqlJoinCheck.check(ORACLE, List.of(row("r1", true, "a,b"), row("r2", true, "c")))
                        .matches(),
                "an orphan joined");
        assertFalse(SqlJoinCheck.check(ORACLE, List.of(row("r1", true, "a,b"))).matches(), "a request missing");
    }

    @Test
    void latencyIsFromTheNewestArrivalToTheRow() {
        assertArrayEquals(new long[] {250}, SqlJoinCheck.latenciesMillis(List.of(row("r1", true, "a"))));
        assertEquals(3, BenchJoinCommand.percentile(new long[] {1, 2, 3, 4}, 75));
        assertEquals(-1, BenchJoinCommand.percentile(new long[0], 99));
    }
}
