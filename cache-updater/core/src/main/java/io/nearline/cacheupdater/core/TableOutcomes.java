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
package io.nearline.cacheupdater.core;

import io.nearline.common.metrics.Metrics;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each source table's writes by outcome: {@code table.writes} with labels {@code table} and
 * {@code outcome} ({@code applied}, {@code stale}, {@code duplicate}, {@code refreshed}, {@code superseded}
 * in the batch, {@code refused} by the store for good and dead-lettered). The job-wide {@code write.*}
 * counters stay as they are; these say which table a stale storm or a refusal comes from.
 */
final class TableOutcomes {

    private final Metrics metrics;
    private final Map<String, Metrics.Counter> counters = new ConcurrentHashMap<>();

    TableOutcomes(Metrics metrics) {
        this.metrics = metrics;
    }

    void written(String table, WriteOutcome outcome) {
        count(table, outcome.name().toLowerCase(Locale.ROOT));
    }

    void superseded(String table) {
        count(table, "superseded");
    }

    void refused(String table) {
        count(table, "refused");
    }

    private void count(String table, String outcome) {
        counters.computeIfAbsent(table + "\n" + outcome, k -> metrics.labelled("table", table)
                        .labelled("outcome", outcome)
                        .counter("table.writes"))
                .inc();
    }
}
