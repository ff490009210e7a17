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
package io.nearline.common.events;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.version.Version;
import java.nio.ByteBuffer;
import java.util.Optional;

/** What a valid change event means for the cache. */
public final class ChangeEvents {

    private ChangeEvents() {}

    public static CacheKey cacheKey(ChangeEvent e) {
        return CacheKey.of(e.getKey());
    }

    /** The cache key, or empty when the event's key cannot be one (the job dead-letters such events). */
    public static Optional<CacheKey> validCacheKey(ChangeEvent e) {
        try {
            return Optional.of(cacheKey(e));
        } catch (IllegalArgumentException invalidKey) {
            return Optional.empty();
        }
    }

    /** An upsert becomes a record with the payload; a delete becomes a tombstone of the same version. */
    public static CacheRecord cacheRecord(ChangeEvent e) {
        Version version = Version.of(e.getScn(), e.getSeq(), e.getSchemaVersion());
        if (e.getOp() == Op.DELETE) {
            return CacheRecord.tombstone(version, e.getPartition());
        }
        ByteBuffer b = e.getPayload().duplicate();
        byte[] payload = new byte[b.remaining()];
        b.get(payload);
        return CacheRecord.upsert(version, e.getPartition(), payload);
    }
}
