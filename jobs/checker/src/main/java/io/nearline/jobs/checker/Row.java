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
package io.nearline.jobs.checker;

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
