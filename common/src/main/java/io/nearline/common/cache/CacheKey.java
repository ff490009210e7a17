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
