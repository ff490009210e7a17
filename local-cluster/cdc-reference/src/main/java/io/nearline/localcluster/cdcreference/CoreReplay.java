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
package io.nearline.localcluster.cdcreference;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.events.ChangeEventValidator;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.events.Rejection;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.store.CacheStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The cache updater's logic without an engine or a broker: lines are decoded, validated, batched and
 * written exactly as the jobs do. It is the reference the conformance suite holds both engines to.
 */
public final class CoreReplay {

    /** The final state, the dead letters (as JSON lines), and the counters. */
    public record Result(List<String> state, List<String> deadLetters, ReplaySummary summary) {}

    private CoreReplay() {}

    public static Result run(
            List<ReplayInput.Line> lines, CacheStore store, WriterSettings writerSettings, int maxPayloadBytes)
            throws InterruptedException {
        long started = System.currentTimeMillis();
        InMemoryMetrics metrics = new InMemoryMetrics();
        ScnOrderedWriter writer = new ScnOrderedWriter(store, writerSettings, metrics);
        UpdateBatch batch = new UpdateBatch(writer, metrics, Duration.ofSeconds(1), 4);
        ChangeEventValidator validator = new ChangeEventValidator(maxPayloadBytes, null);
        List<String> deadLetters = new ArrayList<>();
        Set<CacheKey> keys = new LinkedHashSet<>();
        try {
            for (ReplayInput.Line line : lines) {
                if (line.decoded().isSkipped()) {
                    metrics.counter("events.skipped").inc();
                    continue;
                }
                Rejection rejection = line.decoded().ok()
                        ? validator.check(line.decoded().event())
                        : line.decoded().rejection();
                SourceRecord source = new SourceRecord(
                        "core",
                        line.file(),
                        -1,
                        line.number(),
                        null,
                        line.text().getBytes(StandardCharsets.UTF_8));
                if (rejection != null) {
                    deadLetters.add(DeadLetters.toJson(source.deadLetter(rejection)));
                    continue;
                }
                CacheKey key = ChangeEvents.cacheKey(line.decoded().event());
                keys.add(key);
                batch.add(key, UpdateBatch.Pending.of(line.decoded().event(), source, false));
                if (batch.size() >= 1000) {
                    refuse(batch.flush(), deadLetters);
                }
            }
            refuse(batch.flush(), deadLetters);
        } finally {
            batch.close();
        }
        List<String> state = StateDump.lines(store, keys);
        return new Result(
                state,
                deadLetters,
                ReplaySummary.of(
                        new ReplaySummary.Counts("core", lines.size(), deadLetters.size(), state.size()),
                        metrics,
                        System.currentTimeMillis() - started,
                        Double.NaN,
                        Double.NaN));
    }

    private static void refuse(List<UpdateBatch.Refused> refused, List<String> deadLetters) {
        for (UpdateBatch.Refused r : refused) {
            deadLetters.add(DeadLetters.toJson(r.change().source().deadLetter(r.rejection())));
        }
    }
}
