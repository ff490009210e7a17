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
package io.nearline.jobs.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.storerocksdb.RocksDbCacheStore;
import io.nearline.cacheupdater.storerocksdb.RocksDbStoreSettings;
import io.nearline.cdcbootstrap.core.SnapshotFile;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.events.ChangeEventText;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.version.Version;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repair writes the database's row at its read's version through the ordered write, on a real
 * RocksDB store: a wrong key is put right; a key a writer moves on past the read, racing the repair,
 * keeps the writer's newest change whoever wins; the blind upsert the repair must not be leaves it behind.
 */
class SourceRepairTest {

    /** The version of the read; the racing writer's changes come after it. */
    private static final long READ_AT = 1_000;

    private static final int KEYS = 40;

    @TempDir
    Path dir;

    private SnapshotFile snapshot;

    @BeforeEach
    void writeTheRead() throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add("{\"snapshot\":\"repair-test\",\"highWatermarks\":{\"0\":" + READ_AT + "}}");
        for (int i = 0; i < KEYS; i++) {
            lines.add(ChangeEventText.format(event("public.items:" + i, READ_AT, "{\"id\":" + i + ",\"qty\":7}")));
        }
        Path file = dir.resolve("read.jsonl");
        Files.write(file, lines);
        snapshot = SnapshotFile.open(file);
    }

    @Test
    void aWrongKeyGetsTheDatabasesRowAndAKeyWithNoRowATombstone() {
        try (RocksDbCacheStore store = RocksDbCacheStore.open(RocksDbStoreSettings.at(dir.resolve("db")))) {
            ScnOrderedWriter writer = writer(store);
            writer.write(CacheKey.of("public.items:3"), record(40, "{\"id\":3,\"qty\":1007}"));
            writer.write(CacheKey.of("public.items:999"), record(40, "{\"id\":999,\"qty\":1}"));

            List<SourceRepair.Repaired> done = SourceRepair.write(
                    snapshot,
                    READ_AT,
                    List.of(
                            new SourceRepair.Wrong("public.items", "public.items:3", true),
                            new SourceRepair.Wrong("public.items", "public.items:999", false),
                            new SourceRepair.Wrong("public.items", "public.items:1234", true)),
                    writer);

            assertEquals(
                    List.of("applied", "applied", "skipped"),
                    done.stream().map(SourceRepair.Repaired::outcome).toList());
            CacheRecord repaired = held(store, "public.items:3");
            assertEquals(Version.of(READ_AT, 0), repaired.version());
            assertEquals("{\"id\":3,\"qty\":7}", new String(repaired.payload(), StandardCharsets.UTF_8));
            CacheRecord deleted = held(store, "public.items:999");
            assertTrue(deleted.tombstone(), "a key the database has no row for is deleted");
            assertEquals(Version.of(READ_AT, 0), deleted.version());
            assertTrue(store.get(CacheKey.of("public.items:1234")).isEmpty(), "a row the read lacks is left alone");
        }
    }

    @Test
    void aRepairRacingANewerChangeNeverRegressesIt() throws Exception {
        try (RocksDbCacheStore store = RocksDbCacheStore.open(RocksDbStoreSettings.at(dir.resolve("db")))) {
            List<SourceRepair.Wrong> wrong = new ArrayList<>();
            for (int i = 0; i < KEYS; i++) {
                wrong.add(new SourceRepair.Wrong("public.items", "public.items:" + i, true));
            }
            // the job's writer moves every key on past the read while the repair writes the read's rows
            CompletableFuture<Void> racing = CompletableFuture.runAsync(() -> {
                ScnOrderedWriter job = writer(store);
                for (long v = READ_AT + 1; v <= READ_AT + 20; v++) {
                    for (int i = 0; i < KEYS; i++) {
                        job.write(CacheKey.of("public.items:" + i), record(v, "{\"id\":" + i + ",\"qty\":" + v + "}"));
                    }
                }
            });
            List<SourceRepair.Repaired> done = SourceRepair.write(snapshot, READ_AT, wrong, writer(store));
            racing.join();

            for (int i = 0; i < KEYS; i++) {
                assertEquals(
                        Version.of(READ_AT + 20, 0),
                        held(store, "public.items:" + i).version(),
                        "key " + i);
            }
            assertTrue(done.stream().allMatch(r -> List.of("applied", "stale").contains(r.outcome())), done.toString());

            // negative control: the same row put blindly after the newer change takes the key back past it
            CacheKey key = CacheKey.of("public.items:0");
            store.upsert(
                    key,
                    CacheRecordCodec.encode(record(READ_AT, "{\"id\":0,\"qty\":7}")),
                    WriterSettings.defaults().ttl());
            assertNotEquals(
                    Version.of(READ_AT + 20, 0), held(store, "public.items:0").version());
        }
    }

    private static ScnOrderedWriter writer(RocksDbCacheStore store) {
        return new ScnOrderedWriter(store, WriterSettings.defaults(), Metrics.NONE);
    }

    private static CacheRecord held(RocksDbCacheStore store, String key) {
        return CacheRecordCodec.decode(store.get(CacheKey.of(key)).orElseThrow().value());
    }

    private static CacheRecord record(long version, String json) {
        return CacheRecord.upsert(Version.of(version, 0), 0, json.getBytes(StandardCharsets.UTF_8));
    }

    private static ChangeEvent event(String key, long scn, String json) {
        return ChangeEvent.newBuilder()
                .setTable("public.items")
                .setKey(key)
                .setPartition(0)
                .setScn(scn)
                .setOp(Op.UPSERT)
                .setSchemaVersion(0)
                .setPayload(ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8)))
                .setCommitTimeMillis(1)
                .build();
    }
}
