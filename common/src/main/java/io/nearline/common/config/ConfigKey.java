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

import java.util.Objects;

/**
 * One configuration setting, declared once: name, type, default, description and validation. The
 * declaration drives parsing, error messages and the generated table in {@code docs/configuration.md}.
 * A key without a default is required.
 *
 * <p>A name with a placeholder in angle brackets ({@code cdc.debezium.table.<table>.key-fields}) is a
 * pattern: every key that fills the placeholder with something non-empty is one of its keys, typed and
 * checked as the pattern says ({@link #instances}, {@link #at}).
 */
public record ConfigKey<T>(String name, ValueType<T> type, T defaultValue, String description, Check<T> check) {

    public ConfigKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(check, "check");
        if (defaultValue != null && !check.test().test(defaultValue)) {
            throw new IllegalArgumentException(
                    "default of " + name + " violates its own check: " + check.requirement());
        }
    }

    public static <T> ConfigKey<T> of(String name, ValueType<T> type, T defaultValue, String description) {
        return new ConfigKey<>(name, type, defaultValue, description, Check.none());
    }

    public static <T> ConfigKey<T> required(String name, ValueType<T> type, String description) {
        return new ConfigKey<>(name, type, null, description, Check.none());
    }

    public ConfigKey<T> checked(Check<T> newCheck) {
        return new ConfigKey<>(name, type, defaultValue, description, newCheck);
    }

    /** A key without a default must be set; a pattern's keys are each set or not. */
    public boolean isRequired() {
        return defaultValue == null && !isPattern();
    }

    /** Whether the name has a placeholder ({@code <...>}) that concrete keys fill in. */
    public boolean isPattern() {
        return name.indexOf('<') >= 0 && name.indexOf('>') > name.indexOf('<');
    }

    /** The key this pattern names for {@code part} ({@code public.orders}): same type, default and check. */
    public ConfigKey<T> at(String part) {
        if (!isPattern()) {
            throw new IllegalStateException(name + " is not a pattern");
        }
        return new ConfigKey<>(
                name.substring(0, name.indexOf('<')) + part + name.substring(name.indexOf('>') + 1),
                type,
                defaultValue,
                description,
                check);
    }

    /** What {@code concrete} fills this pattern's placeholder with, or null when it is not one of its keys. */
    public String partOf(String concrete) {
        if (!isPattern()) {
            return null;
        }
        String before = name.substring(0, name.indexOf('<'));
        String after = name.substring(name.indexOf('>') + 1);
        boolean fits = concrete.length() > before.length() + after.length()
                && concrete.startsWith(before)
                && concrete.endsWith(after);
        return fits ? concrete.substring(before.length(), concrete.length() - after.length()) : null;
    }

    /** What a valid value looks like, for error messages. */
    public String expectation() {
        return check.requirement().isEmpty() ? type.expected() : type.expected() + " that " + check.requirement();
    }
}
