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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;

/**
 * The settings of one component (a store, the writer, a job): its keys and the rules that span
 * several keys. {@link Config#validate} checks a configuration against one or more of these.
 */
public final class ConfigDef {

    /** A rule across keys, e.g. "bootstrap period < cache TTL"; {@code problem} names the keys and the fix. */
    public record Invariant(Predicate<Config> holds, String problem) {}

    private final String title;
    private final List<ConfigKey<?>> keys;
    private final List<Invariant> invariants;

    private ConfigDef(String title, List<ConfigKey<?>> keys, List<Invariant> invariants) {
        this.title = title;
        this.keys = List.copyOf(keys);
        this.invariants = List.copyOf(invariants);
    }

    public static ConfigDef of(String title, ConfigKey<?>... keys) {
        return new ConfigDef(title, List.of(keys), List.of());
    }

    public ConfigDef withInvariant(Predicate<Config> holds, String problem) {
        List<Invariant> more = new ArrayList<>(invariants);
        more.add(new Invariant(holds, problem));
        return new ConfigDef(title, keys, more);
    }

    public String title() {
        return title;
    }

    public List<ConfigKey<?>> keys() {
        return keys;
    }

    public List<Invariant> invariants() {
        return Collections.unmodifiableList(invariants);
    }
}
