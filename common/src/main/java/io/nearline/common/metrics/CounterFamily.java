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
package io.nearline.common.metrics;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One counter name over the values of its labels ({@code table.writes} by {@code table} and
 * {@code outcome}): each combination's counter made once, on first use, and kept (a runtime may
 * refuse a second metric of the same name and labels).
 */
public final class CounterFamily {

    private final Metrics metrics;
    private final String name;
    private final List<String> labels;
    private final Map<List<String>, Metrics.Counter> counters = new ConcurrentHashMap<>();

    public CounterFamily(Metrics metrics, String name, String... labels) {
        this.metrics = metrics;
        this.name = name;
        this.labels = List.of(labels);
    }

    /** Counts one for these label values, given in the order of the labels. */
    public void inc(String... values) {
        counters.computeIfAbsent(Arrays.asList(values), this::open).inc();
    }

    private Metrics.Counter open(List<String> values) {
        Metrics labelled = metrics;
        for (int i = 0; i < labels.size(); i++) {
            labelled = labelled.labelled(labels.get(i), values.get(i));
        }
        return labelled.counter(name);
    }
}
