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
package io.nearline.localcluster.sourcesimulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.schema.InMemorySchemaRegistry;
import io.nearline.common.testkit.EngineNeutrality;
import io.nearline.common.testkit.ManualClock;
import io.nearline.jobs.checker.Row;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class SourceOfTruthTest {

    private final List<ChangeEvent> published = new CopyOnWriteArrayList<>();
    private final SourceOfTruth sot =
            new SourceOfTruth(4, new InMemorySchemaRegistry(), new ManualClock(), published::add);

    @Test
    void everyPartitionCountsItsOwnScnsAndPublishesThemInOrder() {
        new Workload(100, 2000, 0, 0.2, -1, 0).run(sot, new Random(1), Duration.ofMinutes(1));
        assertEquals(2000, published.size());
        Map<Integer, Long> last = new HashMap<>();
        for (ChangeEvent e : published) {
            long previous = last.getOrDefault(e.getPartition(), 0L);
            assertEquals(previous + 1, e.getScn(), "partition " + e.getPartition() + " skipped or reordered an SCN");
            last.put(e.getPartition(), e.getScn());
        }
        for (int p = 0; p < 4; p++) {
            assertEquals((long) last.getOrDefault(p, 0L), sot.highWatermark(p));
        }
        ChangeEvent newest = published.get(published.size() - 1);
        assertEquals(
                newest.getScn(),
                sot.read(CacheKey.of(newest.getKey()))
                        .orElseThrow()
                        .version()
                        .scn()
                        .value());
    }

    @Test
    void aSchemaUpgradeMidRunLeavesOldRowsReadableAsTheNewest() {
        new Workload(50, 1000, 0, 0, 0.5, 0).run(sot, new Random(2), Duration.ofMinutes(1));
        assertEquals(2, sot.schemaVersion());
        assertTrue(published.stream().anyMatch(e -> e.getSchemaVersion() == 1));
        assertTrue(published.stream().anyMatch(e -> e.getSchemaVersion() == 2));
        for (CacheKey key : sot.keys()) {
            Row row = sot.read(key).orElseThrow();
            GenericRecord doc = sot.document(row);
            assertEquals(key.value(), doc.get("id").toString());
            assertTrue(doc.getSchema().getField("headline") != null, "not up-converted: " + doc.getSchema());
        }
    }

    @Test
    void snapshotsAreConsistentWhileCommitsGoOn() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            Random random = new Random(3);
            while (!stop.get()) {
                new Workload(200, 100, 0, 0.1, -1, 0).run(sot, random, Duration.ofSeconds(1));
            }
        });
        writer.start();
        List<Snapshot> snapshots = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                snapshots.add(sot.snapshot());
                Thread.sleep(5);
            }
        } finally {
            stop.set(true);
            writer.join();
        }
        for (Snapshot s : snapshots) {
            for (Row row : s.rows()) {
                assertTrue(
                        row.version().scn().value() <= s.highWatermarks()[row.partition()],
                        row + " is newer than its partition's high-watermark " + s.highWatermarks()[row.partition()]);
            }
        }
        assertTrue(snapshots.get(snapshots.size() - 1).rows().size() > 0);
    }

    @Test
    void skewMakesAFewKeysHot() {
        Map<String, Integer> perKey = new HashMap<>();
        SourceOfTruth counted = new SourceOfTruth(
                2,
                new InMemorySchemaRegistry(),
                new ManualClock(),
                e -> perKey.merge(e.getKey().toString(), 1, Integer::sum));
        new Workload(1000, 20_000, 1.2, 0, -1, 0).run(counted, new Random(4), Duration.ofMinutes(1));
        assertTrue(
                perKey.getOrDefault("member:0", 0) > 50 * perKey.getOrDefault("member:999", 1),
                "member:0 " + perKey.get("member:0") + " vs member:999 " + perKey.get("member:999"));
    }

    @Test
    void theSimulatorKnowsNoEngine() {
        EngineNeutrality.check("io.nearline.localcluster.sourcesimulator");
    }
}
