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
package io.nearline.common.config;

import java.time.Duration;
import java.util.function.Predicate;

/** A validation rule on one value: what it requires (for docs and errors) and the test itself. */
public record Check<T>(String requirement, Predicate<T> test) {

    public static <T> Check<T> none() {
        return new Check<>("", v -> true);
    }

    public static Check<Duration> positiveDuration() {
        return new Check<>("must be > 0", d -> !d.isZero() && !d.isNegative());
    }

    public static Check<Integer> atLeast(int min) {
        return new Check<>("must be >= " + min, v -> v >= min);
    }

    public static Check<Integer> between(int min, int max) {
        return new Check<>("must be between " + min + " and " + max, v -> v >= min && v <= max);
    }

    public static Check<Double> fraction() {
        return new Check<>("must be between 0 and 1", v -> v >= 0 && v <= 1);
    }

    public static Check<String> notBlank() {
        return new Check<>("must not be empty", v -> !v.isBlank());
    }
}
