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
package io.nearline.common.cache;

import io.nearline.common.version.Version;
import java.util.Arrays;
import java.util.Objects;

/**
 * What the cache holds for a key: the version, the source partition, when the cache wrote it, and
 * the payload exactly as the source of truth wrote it. A tombstone remembers a delete: it holds only
 * the version (and carries the same TTL), so an older upsert cannot resurrect the key.
 *
 * <p>{@code payload} is owned by the record: callers must not mutate the array they pass in or get.
 */
public record CacheRecord(
        Version version, boolean tombstone, int sourcePartition, long writeTimeMillis, byte[] payload) {

    private static final byte[] EMPTY = new byte[0];

    public CacheRecord {
        Objects.requireNonNull(version, "version");
        if (version.isNone()) {
            throw new IllegalArgumentException("a cache record needs a real version, got " + version);
        }
        if (sourcePartition < 0) {
            throw new IllegalArgumentException("sourcePartition must be >= 0, got " + sourcePartition);
        }
        if (tombstone) {
            if (payload != null && payload.length > 0) {
                throw new IllegalArgumentException("a tombstone carries no payload");
            }
            payload = EMPTY;
        } else {
            Objects.requireNonNull(payload, "payload of an upsert");
        }
    }

    public static CacheRecord upsert(Version version, int sourcePartition, byte[] payload) {
        return new CacheRecord(version, false, sourcePartition, 0L, payload);
    }

    public static CacheRecord tombstone(Version version, int sourcePartition) {
        return new CacheRecord(version, true, sourcePartition, 0L, EMPTY);
    }

    public CacheRecord withWriteTime(long writeTimeMillis) {
        return new CacheRecord(version, tombstone, sourcePartition, writeTimeMillis, payload);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CacheRecord r
                && version.equals(r.version)
                && tombstone == r.tombstone
                && sourcePartition == r.sourcePartition
                && writeTimeMillis == r.writeTimeMillis
                && Arrays.equals(payload, r.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(version, tombstone, sourcePartition, writeTimeMillis, Arrays.hashCode(payload));
    }

    @Override
    public String toString() {
        return "CacheRecord[" + version + (tombstone ? ", tombstone" : ", " + payload.length + " bytes")
                + ", partition " + sourcePartition + ", written " + writeTimeMillis + "]";
    }
}
