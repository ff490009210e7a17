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
package io.nearline.localcluster.sourcesimulator;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.jobs.checker.CacheView;
import io.nearline.jobs.checker.Row;
import io.nearline.jobs.checker.TruthView;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * A reader of the cache, as the storage tier's router is: it serves the cached record when there is
 * one written within the staleness bound the request tolerates; on a miss, or a record older than
 * that, it reads the source of truth and writes the row back through the SCN-ordered write — the
 * third writer racing the cache updater and the bootstrapper. Thread-safe.
 *
 * <p>Metrics: {@code read.hit}, {@code read.miss}, {@code read.too-stale}, {@code read.repaired}.
 */
public final class ReadRepair {

    /** What a read returned and where it came from. */
    public record Result(Optional<CacheRecord> record, boolean fromCache) {}

    private final TruthView sot;
    private final CacheStore cache;
    private final ScnOrderedWriter writer;
    private final Duration stalenessBound;
    private final Clock clock;
    private final Metrics.Counter hit;
    private final Metrics.Counter miss;
    private final Metrics.Counter tooStale;
    private final Metrics.Counter repaired;

    public ReadRepair(
            TruthView sot,
            CacheStore cache,
            ScnOrderedWriter writer,
            Duration stalenessBound,
            Clock clock,
            Metrics metrics) {
        this.sot = sot;
        this.cache = cache;
        this.writer = writer;
        this.stalenessBound = stalenessBound;
        this.clock = clock;
        this.hit = metrics.counter("read.hit");
        this.miss = metrics.counter("read.miss");
        this.tooStale = metrics.counter("read.too-stale");
        this.repaired = metrics.counter("read.repaired");
    }

    public Result read(CacheKey key) {
        Optional<CacheRecord> cached = CacheView.of(cache).get(key);
        if (cached.isPresent()) {
            if (clock.millis() - cached.get().writeTimeMillis() <= stalenessBound.toMillis()) {
                hit.inc();
                return new Result(cached, true);
            }
            tooStale.inc();
        } else {
            miss.inc();
        }
        Optional<Row> row = sot.read(key);
        row.ifPresent(r -> {
            writer.write(key, r.toCacheRecord());
            repaired.inc();
        });
        return new Result(row.map(Row::toCacheRecord), false);
    }
}
