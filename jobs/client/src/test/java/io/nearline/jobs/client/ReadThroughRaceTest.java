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
package io.nearline.jobs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.cache.ConsistentThroughEntry;
import io.nearline.common.config.Config;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.version.Version;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * Reads through racing the job on the same keys never leave an older row. A model database commits
 * changes of a few keys; a model job applies them in commit order through the real ordered write, late,
 * and publishes its consistent-through now and then; readers read through the real client, and while a
 * read is between the database and its write-back, the database and the job move on. Once the job has
 * applied everything, each key must hold the database's row. The control writes back blind and fails.
 */
class ReadThroughRaceTest {

    private static final String TABLE = "public.items";
    private static final int KEYS = 3;

    /** A committed change: key, the row after it (null: deleted), its version. */
    private record Commit(int key, String row, Version version) {}

    private static final class World {
        final Random random;
        final InMemoryCacheStore store = new InMemoryCacheStore();
        final ScnOrderedWriter job = new ScnOrderedWriter(store, WriterSettings.defaults(), Metrics.NONE);
        final List<Commit> log = new ArrayList<>();
        final String[] database = new String[KEYS];
        int applied;
        long scn = 100;

        World(long seed) {
            random = new Random(seed);
        }

        void commit() {
            int key = random.nextInt(KEYS);
            scn += 1 + random.nextInt(3);
            String row = random.nextInt(4) == 0 ? null : "{\"id\":" + key + ",\"v\":" + scn + "}";
            database[key] = row;
            log.add(new Commit(key, row, Version.of(scn, 1 + random.nextInt(5), 0)));
        }

        void apply() {
            if (applied < log.size()) {
                Commit c = log.get(applied++);
                job.write(CacheKey.of(key(c.key())), record(c.row(), c.version()));
            }
        }

        void publish() {
            if (applied == 0) {
                return;
            }
            Version through = log.get(applied - 1).version();
            ConsistentThroughEntry e = new ConsistentThroughEntry(TABLE, 0, "job", 0, through, 0);
            job.write(
                    CacheKey.of(ConsistentThroughEntry.key(ConsistentThroughEntry.DEFAULT_KEY_PREFIX, TABLE, 0, "job")),
                    CacheRecord.upsert(through, 0, e.payload()));
        }

        /** Any of the moves the others make while a reader is busy. */
        void step() {
            switch (random.nextInt(3)) {
                case 0 -> commit();
                case 1 -> apply();
                default -> publish();
            }
        }

        Optional<byte[]> readRow(int key) {
            Optional<byte[]> row = Optional.ofNullable(database[key]).map(r -> r.getBytes(StandardCharsets.UTF_8));
            for (int i = random.nextInt(4); i > 0; i--) {
                step(); // between the database's answer and the write-back
            }
            return row;
        }

        String cached(int key) {
            CacheRecord r = CacheRecordCodec.decode(
                    store.get(CacheKey.of(key(key))).orElseThrow().value());
            return r.tombstone() ? null : new String(r.payload(), StandardCharsets.UTF_8);
        }
    }

    private static String key(int key) {
        return "public.items:" + key;
    }

    private static CacheRecord record(String row, Version v) {
        return row == null
                ? CacheRecord.tombstone(v, 0)
                : CacheRecord.upsert(v, 0, row.getBytes(StandardCharsets.UTF_8));
    }

    /** Null when every key ends as the database has it, else the first that does not. */
    private static String violation(long seed, boolean blind) throws Exception {
        World w = new World(seed);
        Config settings =
                Config.of(Map.of("cdc.format", "debezium-json", "cdc.debezium.tables", "public.items,public.orders"));
        NearlineClient client = new NearlineClient(
                w.store, settings, (table, values) -> w.readRow(Integer.parseInt(values.get(0))), Clock.systemUTC());
        for (int i = 0; i < 60; i++) {
            if (w.random.nextInt(3) == 0) {
                int key = w.random.nextInt(KEYS);
                if (blind) {
                    Optional<byte[]> row = w.readRow(key);
                    w.store.upsert(
                            CacheKey.of(key(key)),
                            CacheRecordCodec.encode(record(row.map(String::new).orElse(null), Version.of(w.scn, 0, 0))),
                            Duration.ofHours(1));
                } else {
                    client.read(TABLE, Duration.ZERO, List.of(Integer.toString(key))); // always through
                }
            } else {
                w.step();
            }
        }
        while (w.applied < w.log.size()) {
            w.apply();
        }
        for (int k = 0; k < KEYS; k++) {
            if (w.store.get(CacheKey.of(key(k))).isEmpty()) {
                if (w.database[k] != null) {
                    return "key " + k + " is missing, the database has " + w.database[k];
                }
            } else if (!java.util.Objects.equals(w.cached(k), w.database[k])) {
                return "key " + k + " holds " + w.cached(k) + ", the database " + w.database[k];
            }
        }
        return null;
    }

    @Property(tries = 500)
    void readsThroughNeverLeaveAnOlderRow(@ForAll long seed) throws Exception {
        assertEquals(null, violation(seed, false));
    }

    @Test
    void aBlindWriteBackDoes() throws Exception {
        String found = null;
        for (long seed = 0; seed < 300 && found == null; seed++) {
            found = violation(seed, true);
        }
        assertNotNull(found, "the race cannot tell a blind write-back from an ordered one");
    }
}
