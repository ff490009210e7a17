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

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.schema.PayloadUpconverter;
import io.nearline.common.schema.SchemaRegistry;
import io.nearline.common.version.Version;
import io.nearline.jobs.checker.Row;
import io.nearline.jobs.checker.TruthView;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * A source-of-truth database in memory, standing in for Espresso: one table of Avro documents,
 * partitioned by key, each partition with its own SCN that grows with every commit. Every commit is
 * published to a {@link ChangeCapture} in SCN order within its partition, like a change-capture
 * stream. It answers point reads (for read-repair) and takes consistent snapshots (for bootstrap).
 *
 * <p>The table's schema evolves: {@link #upgradeSchema()} registers the next version (it adds a field
 * with a default) and later commits are written under it. Thread-safe; commits to different
 * partitions proceed in parallel.
 */
public final class SourceOfTruth implements TruthView {

    public static final String TABLE = "profile";

    /** The table's schema versions: each adds a field with a default, so newer readers read older rows. */
    public static final List<Schema> SCHEMAS = List.of(
            SchemaBuilder.record("Profile")
                    .namespace("io.nearline.sot")
                    .fields()
                    .requiredString("id")
                    .requiredString("name")
                    .endRecord(),
            SchemaBuilder.record("Profile")
                    .namespace("io.nearline.sot")
                    .fields()
                    .requiredString("id")
                    .requiredString("name")
                    .name("headline")
                    .type()
                    .stringType()
                    .stringDefault("")
                    .endRecord(),
            SchemaBuilder.record("Profile")
                    .namespace("io.nearline.sot")
                    .fields()
                    .requiredString("id")
                    .requiredString("name")
                    .name("headline")
                    .type()
                    .stringType()
                    .stringDefault("")
                    .name("location")
                    .type()
                    .stringType()
                    .stringDefault("")
                    .endRecord());

    private final int partitions;
    private final long[] scn;
    private final ReentrantLock[] locks;
    private final Map<CacheKey, Row> rows = new ConcurrentHashMap<>();
    private final SchemaRegistry registry;
    private final PayloadUpconverter payloads;
    private final Clock clock;
    private final ChangeCapture capture;
    private volatile int schemaVersion = 1;

    public SourceOfTruth(int partitions, SchemaRegistry registry, Clock clock, ChangeCapture capture) {
        if (partitions < 1) {
            throw new IllegalArgumentException("need at least one partition");
        }
        this.partitions = partitions;
        this.scn = new long[partitions];
        this.locks = new ReentrantLock[partitions];
        for (int p = 0; p < partitions; p++) {
            locks[p] = new ReentrantLock();
        }
        this.registry = registry;
        this.payloads = new PayloadUpconverter(registry);
        this.clock = clock;
        this.capture = capture;
        registry.register(TABLE, 1, SCHEMAS.get(0));
    }

    public int partitions() {
        return partitions;
    }

    public int partitionOf(CacheKey key) {
        return Math.floorMod(key.value().hashCode(), partitions);
    }

    public int schemaVersion() {
        return schemaVersion;
    }

    /** Registers the next schema version; commits from now on are written under it. */
    public synchronized int upgradeSchema() {
        if (schemaVersion >= SCHEMAS.size()) {
            throw new IllegalStateException("no schema version after " + schemaVersion);
        }
        registry.register(TABLE, schemaVersion + 1, SCHEMAS.get(schemaVersion));
        return ++schemaVersion;
    }

    /** Commits a new document for {@code key} under the current schema version. */
    public Row upsert(CacheKey key, String name, String headline) {
        int version = schemaVersion;
        GenericRecord doc = new GenericData.Record(registry.schema(TABLE, version));
        doc.put("id", key.value());
        doc.put("name", name);
        if (version >= 2) {
            doc.put("headline", headline);
        }
        if (version >= 3) {
            doc.put("location", "");
        }
        return commit(key, false, version, payloads.write(TABLE, version, doc));
    }

    /** Commits the deletion of {@code key} (a delete of an absent key is still a commit). */
    public Row delete(CacheKey key) {
        return commit(key, true, schemaVersion, null);
    }

    private Row commit(CacheKey key, boolean delete, int version, byte[] payload) {
        int p = partitionOf(key);
        locks[p].lock();
        try {
            long next = ++scn[p];
            Row row = new Row(key, p, Version.of(next, version), delete, payload, clock.millis());
            rows.put(key, row);
            capture.publish(ChangeEvent.newBuilder()
                    .setTable(TABLE)
                    .setKey(key.value())
                    .setPartition(p)
                    .setScn(next)
                    .setOp(delete ? Op.DELETE : Op.UPSERT)
                    .setSchemaVersion(version)
                    .setPayload(payload == null ? null : ByteBuffer.wrap(payload))
                    .setCommitTimeMillis(row.commitTimeMillis())
                    .build());
            return row;
        } finally {
            locks[p].unlock();
        }
    }

    /** The latest committed row of {@code key} (a deleted one included), as a point read sees it. */
    @Override
    public Optional<Row> read(CacheKey key) {
        return Optional.ofNullable(rows.get(key));
    }

    /** Every key ever committed. */
    @Override
    public Set<CacheKey> keys() {
        return Set.copyOf(rows.keySet());
    }

    public long highWatermark(int partition) {
        locks[partition].lock();
        try {
            return scn[partition];
        } finally {
            locks[partition].unlock();
        }
    }

    /** A consistent snapshot: commits pause on every partition while the rows are copied. */
    public Snapshot snapshot() {
        for (ReentrantLock lock : locks) {
            lock.lock();
        }
        try {
            return new Snapshot(scn.clone(), new ArrayList<>(rows.values()));
        } finally {
            for (ReentrantLock lock : locks) {
                lock.unlock();
            }
        }
    }

    /** Reads a row's document as the newest schema version (what a reader of the cache does). */
    public GenericRecord document(Row row) {
        return payloads.readLatest(TABLE, row.version().schemaVersion(), row.payload());
    }
}
