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
package io.nearline.jobs.checker;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreException;
import io.nearline.common.version.Version;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Compares a cache with the source of truth key by key and says how they differ — the oracle of the
 * integration tests, the demo and the drills. Run it once writers have drained; while they run, the
 * same comparison measures staleness.
 */
public final class DivergenceChecker {

    /** How a key can differ. */
    public enum Kind {
        /** The source of truth has a newer version than the cache. */
        STALE,
        /** The source of truth has the key; the cache has nothing. */
        MISSING,
        /** The key was deleted, but the cache shows an older upsert: a lost or overwritten delete. */
        RESURRECTED,
        /** The cache shows a record for a key the source of truth never had. */
        EXTRA,
        /** The cache holds a version the source of truth never committed (newer than its latest). */
        AHEAD,
        /** Same version, different content. */
        CORRUPT,
        /** Checked against a database (which has no versions): the cached row differs from the table's. */
        DIFFERENT
    }

    public record Divergence(CacheKey key, Kind kind, Version sot, Version cache) {
        @Override
        public String toString() {
            return key + ": " + kind + " (source " + sot + ", cache " + cache + ")";
        }
    }

    /**
     * @param keysChecked   keys compared
     * @param divergent     every divergent key, sorted by key
     * @param scnLag        for STALE keys, how many SCNs behind (sorted)
     * @param millisLag     for STALE keys, milliseconds since the source committed the version the cache lacks (sorted)
     */
    public record Report(long keysChecked, List<Divergence> divergent, long[] scnLag, long[] millisLag) {

        public long count(Kind kind) {
            return divergent.stream().filter(d -> d.kind() == kind).count();
        }

        public Map<Kind, Long> counts() {
            Map<Kind, Long> out = new EnumMap<>(Kind.class);
            for (Kind k : Kind.values()) {
                out.put(k, count(k));
            }
            return out;
        }

        public boolean converged() {
            return divergent.isEmpty();
        }

        /** The p-th percentile (0..100) of a sorted lag array; 0 when empty. */
        public static long percentile(long[] sorted, double p) {
            if (sorted.length == 0) {
                return 0;
            }
            int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
        }

        public String summary() {
            StringBuilder out =
                    new StringBuilder(String.format("keys checked %,d, divergent %,d", keysChecked, divergent.size()));
            counts().forEach((kind, n) -> {
                if (n > 0) {
                    out.append(String.format("; %s %,d", kind, n));
                }
            });
            if (scnLag.length > 0) {
                out.append(String.format(
                        "; SCN lag p50 %d p99 %d; ms lag p50 %d p99 %d",
                        percentile(scnLag, 50),
                        percentile(scnLag, 99),
                        percentile(millisLag, 50),
                        percentile(millisLag, 99)));
            }
            divergent.stream().limit(5).forEach(d -> out.append("\n  e.g. ").append(d));
            return out.toString();
        }
    }

    private DivergenceChecker() {}

    /**
     * Compares every key the source of truth ever had, plus {@code alsoCheck} (keys writers touched:
     * the cache has no scan, so an EXTRA key can only be found where someone looks).
     */
    public static Report check(TruthView sot, CacheStore cache, Collection<CacheKey> alsoCheck, long nowMillis) {
        return check(sot, CacheView.of(cache), alsoCheck, nowMillis);
    }

    /**
     * Checks again, every {@code pause}, until the cache converges or {@code deadlineNanos} (of
     * {@link System#nanoTime}) passes; {@code notYet} hears of each report that has not. A store that
     * does not answer counts as not yet; its error is thrown if it still does not at the deadline.
     * Returns the last report.
     */
    public static Report checkUntil(
            TruthView sot, CacheView cache, long deadlineNanos, Duration pause, Consumer<Report> notYet)
            throws InterruptedException {
        return checkUntil(() -> check(sot, cache, List.of(), System.currentTimeMillis()), deadlineNanos, pause, notYet);
    }

    /**
     * As {@link #checkUntil}, but also returns once the divergent keys have stayed exactly the same for
     * {@code settled}: the job has taken all there was, and waiting out the deadline would only delay
     * the verdict on a cache that lost writes.
     */
    public static Report checkUntilSettled(Supplier<Report> check, long deadlineNanos, Duration pause, Duration settled)
            throws InterruptedException {
        Report[] last = {null};
        long[] unchangedSince = {System.nanoTime()};
        long settledNanos = settled.toNanos();
        return checkUntil(
                () -> {
                    Report report = check.get();
                    if (last[0] == null || !report.divergent().equals(last[0].divergent())) {
                        unchangedSince[0] = System.nanoTime();
                    }
                    last[0] = report;
                    return report;
                },
                deadlineNanos,
                pause,
                r -> {},
                () -> System.nanoTime() - unchangedSince[0] >= settledNanos);
    }

    /** As above, for any check (against a table: {@link TableCheck}). */
    public static Report checkUntil(Supplier<Report> check, long deadlineNanos, Duration pause, Consumer<Report> notYet)
            throws InterruptedException {
        return checkUntil(check, deadlineNanos, pause, notYet, () -> false);
    }

    private static Report checkUntil(
            Supplier<Report> check,
            long deadlineNanos,
            Duration pause,
            Consumer<Report> notYet,
            BooleanSupplier settled)
            throws InterruptedException {
        while (true) {
            try {
                Report report = check.get();
                if (report.converged() || System.nanoTime() >= deadlineNanos || settled.getAsBoolean()) {
                    return report;
                }
                notYet.accept(report);
            } catch (StoreException e) {
                if (System.nanoTime() >= deadlineNanos) {
                    throw e;
                }
            }
            Thread.sleep(pause.toMillis());
        }
    }

    /** The same against any view of a cache (a live store, a state dump). */
    public static Report check(TruthView sot, CacheView cache, Collection<CacheKey> alsoCheck, long nowMillis) {
        TreeSet<CacheKey> keys = new TreeSet<>(sot.keys());
        keys.addAll(alsoCheck);
        List<Divergence> divergent = new ArrayList<>();
        List<Long> scnLag = new ArrayList<>();
        List<Long> millisLag = new ArrayList<>();
        for (CacheKey key : keys) {
            Optional<Row> source = sot.read(key);
            Optional<CacheRecord> cached = cache.get(key);
            Kind kind = classify(source.orElse(null), cached.orElse(null));
            if (kind != null) {
                divergent.add(new Divergence(
                        key,
                        kind,
                        source.map(Row::version).orElse(Version.NONE),
                        cached.map(CacheRecord::version).orElse(Version.NONE)));
                if (kind == Kind.STALE) {
                    scnLag.add(source.get().version().scn().value()
                            - cached.get().version().scn().value());
                    millisLag.add(Math.max(0, nowMillis - source.get().commitTimeMillis()));
                }
            }
        }
        return new Report(keys.size(), divergent, sorted(scnLag), sorted(millisLag));
    }

    /** Null when the cache agrees with the source for this key. */
    public static Kind classify(Row source, CacheRecord cached) {
        if (source == null) {
            return cached != null && !cached.tombstone() ? Kind.EXTRA : null;
        }
        if (cached == null) {
            return source.deleted() ? null : Kind.MISSING;
        }
        int order = cached.version().compareTo(source.version());
        if (order > 0) {
            return Kind.AHEAD;
        }
        if (source.deleted()) {
            // an older tombstone also reads as "deleted": fine; an older upsert brings the key back
            return cached.tombstone() ? null : (order < 0 ? Kind.RESURRECTED : Kind.CORRUPT);
        }
        if (order < 0) {
            return Kind.STALE;
        }
        return cached.tombstone() || !Arrays.equals(cached.payload(), source.payload()) ? Kind.CORRUPT : null;
    }

    private static long[] sorted(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).sorted().toArray();
    }
}
