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

import io.nearline.common.config.Check;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.ValueType;
import java.time.Duration;

/**
 * The expiry every cache write sets. Declared here, not with the ordered write, because the bootstrap's
 * schedule is checked against it too (its period must stay below the TTL).
 */
public final class CacheTtl {

    public static final ConfigKey<Duration> KEY = ConfigKey.of(
                    "cache.ttl",
                    ValueType.DURATION,
                    Duration.ofDays(7),
                    "Time-to-live set on every cache write, tombstones included. Finite by design: a delete lost "
                            + "upstream heals when the record expires; the bootstrap period must stay below it.")
            .checked(Check.positiveDuration());

    /**
     * One table's own TTL in a Debezium stream of several (its docs are the cache updater's, beside the
     * table's other keys): the bootstrap's period must stay below it too.
     */
    public static final ConfigKey<Duration> PER_TABLE = ConfigKey.required(
                    "cdc.debezium.table.<table>.ttl",
                    ValueType.DURATION,
                    "debezium-json: the time-to-live of the cache records of one table of cdc.debezium.tables, in "
                            + "place of cache.ttl (the bootstrap period must stay below it too).")
            .checked(Check.positiveDuration());

    /** The shortest TTL any record gets: cache.ttl, or a table's own where shorter. */
    public static Duration shortest(Config config) {
        Duration shortest = config.get(KEY);
        for (String table : config.instances(PER_TABLE)) {
            Duration own = config.get(PER_TABLE.at(table));
            shortest = own.compareTo(shortest) < 0 ? own : shortest;
        }
        return shortest;
    }

    /** The key alone, for a component that only checks against the TTL (its docs are the ordered write's). */
    public static final ConfigDef DEF = ConfigDef.of("cache TTL", KEY);

    private CacheTtl() {}
}
