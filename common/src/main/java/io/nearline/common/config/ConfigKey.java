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

    public boolean isRequired() {
        return defaultValue == null;
    }

    /** What a valid value looks like, for error messages. */
    public String expectation() {
        return check.requirement().isEmpty() ? type.expected() : type.expected() + " that " + check.requirement();
    }
}
