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

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriteOutcome;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.store.CacheStore;
import io.nearline.common.version.Version;
import io.nearline.jobs.kit.console.Progress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;

/**
 * Several writers racing on the same keys, as the cache updater, the bootstrapper and read-repair do
 * in production: every committed version of a key reaches one or two writers, each in its own
 * scrambled order. After the race every key must hold its newest version.
 */
public final class Race {

    /** One version of one key, delivered to one writer. */
    public record Delivery(CacheKey key, CacheRecord record) {}

    /** The deliveries of each writer and the version each key must end at. */
    public record Workload(List<List<Delivery>> perWriter, Map<CacheKey, CacheRecord> newest) {
        public long deliveries() {
            return perWriter.stream().mapToLong(List::size).sum();
        }
    }

    /** A key that does not hold its newest version after the race. */
    public record Divergence(CacheKey key, String holds, Version newest) {}

    private Race() {}

    public static Workload workload(long seed, int keys, int versionsPerKey, int writers, double deleteRatio) {
        Random random = new Random(seed);
        List<List<Delivery>> perWriter = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            perWriter.add(new ArrayList<>());
        }
        Map<CacheKey, CacheRecord> newest = new LinkedHashMap<>();
        for (int k = 0; k < keys; k++) {
            CacheKey key = CacheKey.of("member:" + k);
            long scn = random.nextInt(100);
            CacheRecord last = null;
            for (int v = 0; v < versionsPerKey; v++) {
                scn += 1 + random.nextInt(5);
                int schema = 1 + v * 3 / versionsPerKey; // schema upgrades part-way through
                boolean delete = random.nextDouble() < deleteRatio;
                last = record(key, Version.of(scn, schema), delete);
                int first = random.nextInt(writers);
                perWriter.get(first).add(new Delivery(key, last));
                if (writers > 1 && random.nextInt(3) == 0) { // the same version also reaches another writer
                    perWriter
                            .get((first + 1 + random.nextInt(writers - 1)) % writers)
                            .add(new Delivery(key, last));
                }
            }
            newest.put(key, last);
        }
        perWriter.forEach(list -> Collections.shuffle(list, random));
        return new Workload(perWriter, newest);
    }

    private static CacheRecord record(CacheKey key, Version version, boolean delete) {
        return delete
                ? CacheRecord.tombstone(version, 0)
                : CacheRecord.upsert(version, 0, (key + " @ " + version).getBytes(StandardCharsets.UTF_8));
    }

    /** Runs every writer's deliveries on its own thread through {@code write}; returns when all are done. */
    public static void run(Workload workload, BiConsumer<CacheKey, CacheRecord> write, Progress progress)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(workload.perWriter().size());
        try {
            List<Future<?>> running = new ArrayList<>();
            for (List<Delivery> share : workload.perWriter()) {
                running.add(pool.submit(() -> {
                    for (Delivery d : share) {
                        write.accept(d.key(), d.record());
                        progress.step();
                    }
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The SCN-ordered write as a race writer; a FAILED write is an error, not a statistic. */
    public static BiConsumer<CacheKey, CacheRecord> ordered(ScnOrderedWriter writer) {
        return (key, record) -> {
            var result = writer.write(key, record);
            if (result.outcome() == WriteOutcome.FAILED) {
                throw new IllegalStateException("write of " + key + " failed", result.failure());
            }
        };
    }

    /** What an ordinary sink does: put whatever arrives. */
    public static BiConsumer<CacheKey, CacheRecord> blind(CacheStore store, Duration ttl) {
        return (key, record) ->
                store.upsert(key, CacheRecordCodec.encode(record.withWriteTime(System.currentTimeMillis())), ttl);
    }

    /** Keys whose stored record is not their newest version, byte for byte. */
    public static List<Divergence> check(Workload workload, CacheStore store) {
        List<Divergence> out = new ArrayList<>();
        workload.newest().forEach((key, expected) -> {
            var stored = store.get(key);
            if (stored.isEmpty()) {
                out.add(new Divergence(key, "nothing", expected.version()));
                return;
            }
            CacheRecord actual = CacheRecordCodec.decode(stored.get().value());
            if (!actual.version().equals(expected.version())
                    || actual.tombstone() != expected.tombstone()
                    || !Arrays.equals(actual.payload(), expected.payload())) {
                out.add(new Divergence(
                        key, actual.version() + (actual.tombstone() ? " (tombstone)" : ""), expected.version()));
            }
        });
        return out;
    }
}
