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
package io.nearline.cacheupdater.core;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheTtl;
import io.nearline.common.config.Check;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.ValueType;
import java.io.Serializable;
import java.time.Duration;
import java.util.Map;

/**
 * Settings of the SCN-ordered write, shared by every cache writer (updater, bootstrapper, read-repair).
 *
 * @param ttl            every record's time-to-live ({@code cache.ttl})
 * @param ttlByKeyPrefix a table's own TTL by the prefix its keys start with (several tables of a Debezium
 *     stream, {@code cdc.debezium.table.<table>.ttl}); the longest prefix a key starts with decides
 */
public record WriterSettings(Duration ttl, int maxAttempts, Backoff backoff, Map<String, Duration> ttlByKeyPrefix)
        implements Serializable {

    public static final ConfigKey<Duration> TTL = CacheTtl.KEY;

    public static final ConfigKey<Integer> MAX_ATTEMPTS = ConfigKey.of(
                    "write.max-attempts",
                    ValueType.INT,
                    12,
                    "Store round trips (read, then insert or CAS replace) one write may take before it FAILS; "
                            + "conflicts with other writers and transient store errors each use one.")
            .checked(Check.between(1, 1000));

    public static final ConfigKey<Duration> BACKOFF_INITIAL = ConfigKey.of(
            "write.backoff.initial",
            ValueType.DURATION,
            Duration.ofMillis(5),
            "Backoff before the first retry; doubles per retry, with jitter.");

    public static final ConfigKey<Duration> BACKOFF_MAX = ConfigKey.of(
            "write.backoff.max",
            ValueType.DURATION,
            Duration.ofSeconds(2),
            "Longest backoff between two retries of one write.");

    public static final ConfigDef DEF = ConfigDef.of(
                    "SCN-ordered write", TTL, MAX_ATTEMPTS, BACKOFF_INITIAL, BACKOFF_MAX)
            .withInvariant(
                    c -> c.get(BACKOFF_MAX).compareTo(c.get(BACKOFF_INITIAL)) >= 0,
                    "'write.backoff.max' must be >= 'write.backoff.initial': raise the max or lower the initial backoff.");

    /** One TTL for every key. */
    public WriterSettings(Duration ttl, int maxAttempts, Backoff backoff) {
        this(ttl, maxAttempts, backoff, Map.of());
    }

    public WriterSettings {
        ttlByKeyPrefix = Map.copyOf(ttlByKeyPrefix);
        if (ttl.isZero() || ttl.isNegative()) {
            throw new IllegalArgumentException("cache TTL must be > 0, got " + ttl);
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be >= 1, got " + maxAttempts);
        }
    }

    public static WriterSettings from(Config config) {
        config.validate(DEF);
        return new WriterSettings(
                config.get(TTL),
                config.get(MAX_ATTEMPTS),
                new Backoff(config.get(BACKOFF_INITIAL), config.get(BACKOFF_MAX)));
    }

    public static WriterSettings defaults() {
        return from(Config.empty());
    }

    public WriterSettings withTtl(Duration newTtl) {
        return new WriterSettings(newTtl, maxAttempts, backoff, ttlByKeyPrefix);
    }

    /** These settings with tables' own TTLs, by the prefix their keys start with. */
    public WriterSettings withTtlByKeyPrefix(Map<String, Duration> byPrefix) {
        return new WriterSettings(ttl, maxAttempts, backoff, byPrefix);
    }

    /** The TTL of {@code key}: its table's own (the longest prefix it starts with), else {@link #ttl}. */
    public Duration ttlOf(CacheKey key) {
        if (ttlByKeyPrefix.isEmpty()) {
            return ttl;
        }
        String k = key.value();
        Duration found = ttl;
        int longest = -1;
        for (Map.Entry<String, Duration> e : ttlByKeyPrefix.entrySet()) {
            if (k.startsWith(e.getKey()) && e.getKey().length() > longest) {
                found = e.getValue();
                longest = e.getKey().length();
            }
        }
        return found;
    }
}
