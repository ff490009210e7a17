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
package io.nearline.lxctestbed.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.jobs.cluster.ClusterException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A heal tries every part whatever fails and names what did; a testbed left faulted is refused until cleared. */
class TestbedHealTest {

    @TempDir
    Path dir;

    @Test
    void everyPartIsTriedAndEachFailureNamed() {
        List<String> ran = new ArrayList<>();
        ClusterException e = assertThrows(
                ClusterException.class,
                () -> TestbedHeal.every(List.of(
                        new TestbedHeal.Part("the partition of node-1", () -> ran.add("partition")),
                        new TestbedHeal.Part("the pipe of node-1", () -> {
                            throw new IllegalStateException("tc: Cannot find device");
                        }),
                        new TestbedHeal.Part("kafka", () -> ran.add("kafka")),
                        new TestbedHeal.Part("the store", () -> {
                            throw new IllegalStateException("kill: no such process");
                        }))));
        assertEquals(List.of("partition", "kafka"), ran, "the parts after a failure still ran");
        assertEquals(
                "not healed: the pipe of node-1: tc: Cannot find device; the store: kill: no such process",
                e.getMessage());
        assertEquals("tc: Cannot find device", e.getCause().getMessage());
        assertEquals(1, e.getCause().getSuppressed().length);
    }

    @Test
    void nothingFailingThrowsNothing() {
        List<String> ran = new ArrayList<>();
        TestbedHeal.onEvery(List.of("node-1", "node-2"), "the links", ran::add);
        assertEquals(List.of("node-1", "node-2"), ran);
    }

    @Test
    void aFaultedTestbedIsRefusedWithTheFixUntilCleared() {
        TestbedHeal.refuseIfFaulted(dir); // not marked: nothing to refuse
        TestbedHeal.mark(dir, List.of("partition-store on node-2: nft: Operation not permitted"));
        assertEquals(Optional.of("partition-store on node-2: nft: Operation not permitted"), TestbedHeal.faulted(dir));
        ClusterException e = assertThrows(ClusterException.class, () -> TestbedHeal.refuseIfFaulted(dir));
        assertEquals(2, e.exitCode());
        assertTrue(e.getMessage().contains("partition-store on node-2"), e.getMessage());
        assertTrue(e.getMessage().contains("bin/nearline testbed heal --dir " + dir), e.getMessage());
        TestbedHeal.clear(dir);
        TestbedHeal.refuseIfFaulted(dir);
    }
}
