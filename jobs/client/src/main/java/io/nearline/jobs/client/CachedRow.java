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

import io.nearline.common.version.Version;
import java.nio.charset.StandardCharsets;

/**
 * A key's record in the cache, decoded: the row as the job wrote it (a tombstone: the row is deleted),
 * the version it was written at, when and from which input partition.
 *
 * @param payload the row's bytes as the job wrote them (Debezium's JSON image for a Debezium job); null for a tombstone
 */
public record CachedRow(String key, byte[] payload, Version version, long writeTimeMillis, int sourcePartition) {

    public boolean tombstone() {
        return payload == null;
    }

    /** The row as text (JSON for a Debezium job); null for a tombstone. */
    public String row() {
        return payload == null ? null : new String(payload, StandardCharsets.UTF_8);
    }
}
