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
 * What a bounded read returned: the row (null where the table has none, or holds a tombstone), the
 * version it carries, where it came from, and how stale it may be.
 *
 * @param from where the row was read: the cache, or the database when the cache was missing the key or too stale
 * @param stalenessMillis how far behind the source the cache was when served from it; 0 from the database
 * @param written what the write-back did with a row read through: applied, stale, duplicate (null from the cache)
 */
public record Read(String key, byte[] payload, Version version, From from, long stalenessMillis, String written) {

    /** Where a read's row came from. */
    public enum From {
        CACHE,
        DATABASE
    }

    public boolean found() {
        return payload != null;
    }

    /** The row as text (JSON for a Debezium job); null where there is none. */
    public String row() {
        return payload == null ? null : new String(payload, StandardCharsets.UTF_8);
    }
}
