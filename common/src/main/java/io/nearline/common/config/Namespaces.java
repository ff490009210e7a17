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

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The first segments of Nearline's setting names. None is an engine's: a job's configuration can
 * hold Flink's or Samza's own keys ({@code job.name}, {@code stores.*}, {@code execution.*}) beside
 * Nearline's without a clash, and a namespace one edit away from one of these is taken for a typo.
 */
public final class Namespaces {

    public static final Set<String> NEARLINE = Set.of(
            "kafka",
            "cdc",
            "cache",
            "write",
            "couchbase",
            "redis",
            "rocksdb",
            "bootstrap",
            "tracking",
            "join",
            "schema");

    private Namespaces() {}

    /** The namespace of a key: its first segment. */
    public static String of(String key) {
        int dot = key.indexOf('.');
        return dot < 0 ? key : key.substring(0, dot);
    }

    public static boolean isNearline(String key) {
        return NEARLINE.contains(of(key));
    }

    /** The Nearline namespace {@code ns} is one edit away from, if it is not one itself. */
    static Optional<String> misspelt(String ns) {
        if (NEARLINE.contains(ns) || ns.length() < 3) {
            return Optional.empty();
        }
        return new TreeSet<>(NEARLINE)
                .stream().filter(n -> Config.editDistance(ns, n) == 1).findFirst();
    }
}
