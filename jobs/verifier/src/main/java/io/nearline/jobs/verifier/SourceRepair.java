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

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriteResult;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cdcbootstrap.core.DatabaseSnapshot;
import io.nearline.cdcbootstrap.core.SnapshotFile;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.config.Config;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.database.DebeziumWatermarks;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.jobs.kit.kafka.KafkaClient;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code verify --repair}: each key found divergent gets the database's row, written through the
 * cache updater's ordered write at the version of one consistent read of the database (the point
 * {@code bootstrap run --from} reads at). Every change the read did not see carries a higher version,
 * so a repair can lose to a newer change but never overwrite one. A key whose row the read does not
 * hold, and that the verifier saw no row for either, gets a tombstone at that version.
 */
public final class SourceRepair {

    /** A key the verifier confirmed divergent; {@code inDatabase}: whether its round read a row for it. */
    public record Wrong(String table, String key, boolean inDatabase) {}

    /**
     * What the repair did: {@code applied}, {@code stale} (the cache already holds a change newer than the
     * read, which stands), or {@code skipped} with the reason.
     */
    public record Repaired(Wrong wrong, String outcome, String why) {}

    private final SourceDatabase database;
    private final String kind;
    private final KafkaClient kafka;
    private final Path workDir;
    private final WriterSettings writerSettings;
    private final String watermarkTopic;
    private final Duration wait;

    /**
     * @param settings the cache updater's settings (its TTLs), over the cluster's; checked as the job checks them
     * @param watermarkTopic where Debezium's PostgreSQL connector streams the read's watermark
     */
    public SourceRepair(ClusterFile cluster, String kind, Config settings, String watermarkTopic, Duration wait)
            throws IOException {
        this(
                SourceDatabase.fromClusterFile(cluster.dir(), kind),
                cluster.kafka(),
                cluster.dir().resolve("verify"),
                Config.of(cluster.jobSettings()).withOverrides(settings.asMap()),
                watermarkTopic,
                wait);
    }

    /**
     * @param database the source of truth ({@code kind} is its kind)
     * @param kafka the broker the connector streams the read's watermark to (PostgreSQL)
     * @param workDir where the read is written while it is used
     * @param config the cache updater's settings (its TTLs); checked as the job checks them
     */
    public SourceRepair(
            SourceDatabase database,
            KafkaClient kafka,
            Path workDir,
            Config config,
            String watermarkTopic,
            Duration wait) {
        DatabaseSnapshot.Source.of(database.kind());
        CacheUpdaterSettings.validateJob(config);
        this.database = database;
        this.kind = database.kind();
        this.kafka = kafka;
        this.workDir = workDir;
        this.writerSettings =
                WriterSettings.from(config).withTtlByKeyPrefix(CacheUpdaterSettings.ttlByKeyPrefix(config));
        this.watermarkTopic = watermarkTopic;
        this.wait = wait;
    }

    /** Reads the database once at a known point, then writes each wrong key's row at that point's version. */
    public List<Repaired> repair(List<Wrong> wrong, CacheStore cache) throws IOException, SQLException {
        Path file = Files.createDirectories(workDir).resolve(kind + ".repair.jsonl");
        DatabaseSnapshot.Taken taken;
        try (Connection c = database.connect()) {
            taken = new DatabaseSnapshot(c, DatabaseSnapshot.Source.of(kind), database.resolvedKeys(c), wait)
                    .write(new DebeziumWatermarks(kafka, watermarkTopic), file);
        } catch (IllegalStateException e) {
            throw new ClusterException("verify --repair: " + e.getMessage(), 1);
        }
        System.out.printf("  repair: read %,d rows at version %d (%s)%n", taken.rows(), taken.scn(), taken.point());
        return write(
                SnapshotFile.open(file), taken.scn(), wrong, new ScnOrderedWriter(cache, writerSettings, Metrics.NONE));
    }

    /** The writes of a read already taken: {@code snapshot}'s rows for the wrong keys, at version {@code scn}. */
    static List<Repaired> write(SnapshotFile snapshot, long scn, List<Wrong> wrong, ScnOrderedWriter writer) {
        Map<String, Wrong> byKey = new HashMap<>();
        wrong.forEach(w -> byKey.put(w.key(), w));
        Map<String, ChangeEvent> rows = new HashMap<>();
        try (Stream<ChangeEvent> all = snapshot.streamRows()) {
            all.filter(e -> byKey.containsKey(e.getKey())).forEach(e -> rows.put(e.getKey(), e));
        }
        List<Repaired> out = new ArrayList<>();
        for (Wrong w : wrong) {
            ChangeEvent row = rows.get(w.key());
            if (row == null && w.inDatabase()) {
                // the verifier read a row the repair's read did not: deleted since, or keyed otherwise; the next round
                // sees
                out.add(new Repaired(w, "skipped", "the repair's read holds no row under this key"));
                continue;
            }
            ChangeEvent event = row != null ? row : tombstone(w, scn);
            WriteResult r = writer.write(ChangeEvents.cacheKey(event), ChangeEvents.cacheRecord(event));
            out.add(new Repaired(
                    w,
                    r.outcome().name().toLowerCase(Locale.ROOT),
                    switch (r.outcome()) {
                        case APPLIED -> (row != null ? "the row" : "a tombstone") + " at version " + scn;
                        case STALE, DUPLICATE -> "the cache holds a change at or above the read's version " + scn;
                        default -> String.valueOf(r.failure());
                    }));
        }
        return out;
    }

    private static ChangeEvent tombstone(Wrong w, long scn) {
        return ChangeEvent.newBuilder()
                .setTable(w.table())
                .setKey(w.key())
                .setPartition(0)
                .setScn(scn)
                .setOp(Op.DELETE)
                .setSchemaVersion(0)
                .setPayload(ByteBuffer.allocate(0))
                .setCommitTimeMillis(System.currentTimeMillis())
                .build();
    }
}
