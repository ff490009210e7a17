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
package io.nearline.lxctestbed.drillrunner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.jobs.cluster.ClusterException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A fault that fails half-way is healed where it reached, not reported untouched and left in place. */
class InjectorTest {

    @Test
    void aFailureHalfWayKeepsEveryTargetItReachedTheFailingOneIncluded() {
        List<String> acted = new ArrayList<>();
        Injector.Reached<String> r = Injector.onEach(List.of("node-1", "node-2", "node-3"), n -> {
            acted.add(n);
            if (n.equals("node-2")) {
                throw new ClusterException("nft failed on " + n);
            }
        });
        assertEquals(List.of("node-1", "node-2"), r.targets(), "node-2 may be half cut: heal it too");
        assertEquals(List.of("node-1", "node-2"), acted, "node-3 never touched");
        assertTrue(r.failure().getMessage().contains("node-2"));
    }

    @Test
    void everyTargetReachedWithoutAFailure() {
        Injector.Reached<String> r = Injector.onEach(List.of("a", "b"), n -> {});
        assertEquals(List.of("a", "b"), r.targets());
        assertNull(r.failure());
    }

    @Test
    void anApplyThatReachedSomethingIsDueAHealEvenWhenNotInPlace() {
        assertTrue(new Injector.Applied(false, "node-1,node-2", "failed on node-2").touched());
        assertFalse(new Injector.Applied(false, "-", "no container running").touched());
        assertTrue(new Injector.Applied(true, "node-1", "frozen").touched());
    }
}
