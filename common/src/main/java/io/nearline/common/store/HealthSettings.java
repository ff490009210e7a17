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
package io.nearline.common.store;

import io.nearline.common.config.Check;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.ValueType;
import java.time.Clock;
import java.time.Duration;

/**
 * How a networked store judges its own health ({@link ErrorRateHealth}): the share of operations
 * failing transiently over a sliding window. Every such store has the same three settings under its
 * own prefix ({@code couchbase.health.*}, {@code redis.health.*}).
 */
public record HealthSettings(Duration window, int minSamples, double maxErrorRate) {

    /** The three keys under {@code prefix}.health. */
    public record Keys(ConfigKey<Duration> window, ConfigKey<Integer> minSamples, ConfigKey<Double> maxErrorRate) {

        public HealthSettings from(Config config) {
            return new HealthSettings(config.get(window), config.get(minSamples), config.get(maxErrorRate));
        }
    }

    public static Keys keys(String prefix) {
        return new Keys(
                ConfigKey.of(
                                prefix + ".health.window",
                                ValueType.DURATION,
                                Duration.ofSeconds(30),
                                "Sliding window over which the transient error rate is measured.")
                        .checked(new Check<>("must be >= 10ms", d -> d.toMillis() >= 10)),
                ConfigKey.of(
                                prefix + ".health.min-samples",
                                ValueType.INT,
                                20,
                                "Operations needed in the window before the store can be judged unhealthy.")
                        .checked(Check.atLeast(1)),
                ConfigKey.of(
                                prefix + ".health.max-error-rate",
                                ValueType.DOUBLE,
                                0.5,
                                "Share of operations failing transiently above which the store reports unhealthy "
                                        + "and jobs stop pulling input.")
                        .checked(Check.fraction()));
    }

    /** A fresh health judgement with these settings. */
    public ErrorRateHealth newHealth() {
        return new ErrorRateHealth(Clock.systemUTC(), window.toMillis(), minSamples, maxErrorRate);
    }
}
