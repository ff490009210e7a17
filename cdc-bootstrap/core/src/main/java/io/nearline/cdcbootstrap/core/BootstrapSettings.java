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
package io.nearline.cdcbootstrap.core;

import io.nearline.common.cache.CacheTtl;
import io.nearline.common.config.Check;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.ValueType;
import java.time.Duration;

/** Settings of the bootstrap: its topic, chunking, and the schedule (period shorter than the cache TTL). */
public record BootstrapSettings(String topic, int chunkRows, Duration period, Duration ttl) {

    public static final ConfigKey<Boolean> ENABLED = ConfigKey.of(
            "bootstrap.enabled",
            ValueType.BOOLEAN,
            false,
            "The cache updater also reads the bootstrap topic, in the same job (Samza's app; Flink's CacheUpdaterJob). "
                    + "Flink can run the bootstrapper as a job of its own instead: BootstrapJob.");

    public static final ConfigKey<String> TOPIC = ConfigKey.of(
                    "bootstrap.topic",
                    ValueType.STRING,
                    "nearline.bootstrap",
                    "Topic of the bootstrap stream (Avro BootstrapRecord: markers and rows).")
            .checked(Check.notBlank());
    public static final ConfigKey<Integer> CHUNK_ROWS = ConfigKey.of(
                    "bootstrap.chunk-rows",
                    ValueType.INT,
                    10_000,
                    "Rows per chunk; progress is saved after each acknowledged chunk, so a restarted producer resends at most "
                            + "one chunk.")
            .checked(Check.between(1, 10_000_000));
    public static final ConfigKey<Duration> PERIOD = ConfigKey.of(
                    "bootstrap.period",
                    ValueType.DURATION,
                    Duration.ofDays(1),
                    "How often a full bootstrap must complete. Must be shorter than cache.ttl, so every live key is rewritten "
                            + "before it can expire.")
            .checked(Check.positiveDuration());

    public static final ConfigDef DEF = ConfigDef.of("cdc-bootstrap", ENABLED, TOPIC, CHUNK_ROWS, PERIOD)
            .withInvariant(
                    c -> c.get(PERIOD).compareTo(CacheTtl.shortest(c)) < 0,
                    "'bootstrap.period' must be shorter than 'cache.ttl' and every 'cdc.debezium.table.<table>.ttl': "
                            + "records written by one bootstrap would expire before the next one rewrites them. Shorten "
                            + "bootstrap.period or lengthen the TTL.");

    public static BootstrapSettings from(Config config) {
        config.validate(DEF, CacheTtl.DEF);
        return new BootstrapSettings(
                config.get(TOPIC), config.get(CHUNK_ROWS), config.get(PERIOD), config.get(CacheTtl.KEY));
    }
}
