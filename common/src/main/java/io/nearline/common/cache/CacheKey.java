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

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The key of a cache record. Any non-empty Unicode string of at most {@link #MAX_UTF8_BYTES} bytes
 * in UTF-8 — Couchbase's document-id limit, so a key valid here is valid in every store.
 */
public record CacheKey(String value) implements Comparable<CacheKey> {

    public static final int MAX_UTF8_BYTES = 250;

    public CacheKey {
        Objects.requireNonNull(value, "cache key");
        if (value.isEmpty()) {
            throw new IllegalArgumentException("cache key must not be empty");
        }
        int bytes = value.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_UTF8_BYTES) {
            throw new IllegalArgumentException("cache key is " + bytes + " bytes in UTF-8, the limit is "
                    + MAX_UTF8_BYTES + ": " + value.substring(0, Math.min(40, value.length())) + "...");
        }
    }

    public static CacheKey of(String value) {
        return new CacheKey(value);
    }

    public byte[] utf8() {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public int compareTo(CacheKey other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
