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
package io.nearline.jobs.cluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code --set KEY=VALUE}, repeatable: Nearline settings over a descriptor's or the cluster's. */
public final class SetOptions {

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "A Nearline setting over the others; repeatable.")
    List<String> sets = List.of();

    public List<String> values() {
        return sets;
    }

    public Map<String, String> overrides() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String s : sets) {
            int eq = s.indexOf('=');
            if (eq <= 0) {
                throw new ClusterException("--set takes KEY=VALUE, got '" + s + "'");
            }
            out.put(s.substring(0, eq).strip(), s.substring(eq + 1).strip());
        }
        return out;
    }
}
