package io.nearline.localcluster.simulator;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.version.Version;

/**
 * A row as the source of truth holds it: its latest committed version, and either the document
 * (Avro binary under {@code version.schemaVersion()}) or the fact that it was deleted.
 */
public record Row(
        CacheKey key, int partition, Version version, boolean deleted, byte[] payload, long commitTimeMillis) {

    /** What a cache writer (bootstrap, read-repair) writes for this row. */
    public CacheRecord toCacheRecord() {
        return deleted ? CacheRecord.tombstone(version, partition) : CacheRecord.upsert(version, partition, payload);
    }
}
