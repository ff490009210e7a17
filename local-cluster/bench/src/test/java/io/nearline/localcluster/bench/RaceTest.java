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
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.storerocksdb.RocksDbCacheStore;
import io.nearline.cacheupdater.storerocksdb.RocksDbStoreSettings;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.jobs.kit.console.Progress;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RaceTest {

    @TempDir
    Path dir;

    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    @Test
    void workloadIsReproducibleFromItsSeed() {
        Race.Workload a = Race.workload(7, 50, 10, 3, 0.2);
        Race.Workload b = Race.workload(7, 50, 10, 3, 0.2);
        assertEquals(a, b);
        assertEquals(50, a.newest().size());
        assertTrue(a.deliveries() >= 500, "every version is delivered at least once");
    }

    @Test
    void orderedWritersLeaveNoKeyBehindAndTheBlindSinkDoes() throws Exception {
        Race.Workload workload = Race.workload(11, 200, 20, 4, 0.1);
        try (RocksDbCacheStore ordered = RocksDbCacheStore.open(RocksDbStoreSettings.at(dir.resolve("o")));
                RocksDbCacheStore blind = RocksDbCacheStore.open(RocksDbStoreSettings.at(dir.resolve("b")))) {
            ScnOrderedWriter writer = new ScnOrderedWriter(ordered, WriterSettings.defaults(), new InMemoryMetrics());
            try (Progress p = new Progress("x", workload.deliveries(), QUIET)) {
                Race.run(workload, Race.ordered(writer), p);
                Race.run(workload, Race.blind(blind, WriterSettings.defaults().ttl()), p);
            }
            assertEquals(List.of(), Race.check(workload, ordered));
            // the checker is not blind: put-whatever-arrives leaves most keys on an old version
            assertTrue(Race.check(workload, blind).size() > 100, "blind sink diverged on too few keys");
        }
    }

    @Test
    void commandExitsZeroAndPrintsASummary() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        System.setOut(new PrintStream(buffer, true));
        try {
            int code = new picocli.CommandLine(new RaceCommand())
                    .execute("--keys", "100", "--versions", "10", "--seed", "3", "--dir", dir.toString());
            assertEquals(0, code);
        } finally {
            System.setOut(saved);
        }
        String text = buffer.toString();
        assertTrue(text.contains("seed 3") && text.contains("divergent 0 (0.0%)") && text.contains("blind sink"), text);
    }
}
