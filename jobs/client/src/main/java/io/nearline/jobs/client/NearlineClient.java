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
package io.nearline.jobs.client;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriteResult;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.cache.ConsistentThroughEntry;
import io.nearline.common.cache.RowKey;
import io.nearline.common.config.Check;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.ValueType;
import io.nearline.common.events.DebeziumKeys;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import io.nearline.common.version.Version;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What an application reads the cache through (docs/reading.md). Opened with the job's own settings,
 * so that it builds the keys the job builds and reads the store the job writes:
 *
 * <ul>
 *   <li>{@link #key}: a row's cache key, by its table and key values;
 *   <li>{@link #get}: the key's record as the cache holds it, whatever its age;
 *   <li>{@link #read}: the row within a staleness bound. It is served from the cache when the job's
 *       published consistent-through for the table is within the bound; otherwise (and on a miss) it is
 *       read from the database and written back through the ordered write at the published version,
 *       which every change the read did not see is above (or, with nothing published, only where the key
 *       is absent), so a write-back never hides a newer change;
 *   <li>{@link #awaitCommit}: read-your-writes, waiting until the cache holds every change committed up
 *       to the application's own commit position.
 * </ul>
 *
 * Thread-safe.
 */
public final class NearlineClient implements AutoCloseable {

    public static final ConfigKey<Integer> ENTRIES = ConfigKey.of(
                    "client.entries",
                    ValueType.INT,
                    0,
                    "How many consistent-through entries a table must have before the client trusts them: the input "
                            + "topic's partitions times the tasks that write each one's changes (Flink spreads a "
                            + "partition over the write operator's parallelism by key; Samza and Connect write a "
                            + "partition from one task). Until then the table's consistent-through is unknown and "
                            + "bounded reads go to the database. 0: whatever entries there are.")
            .checked(Check.atLeast(0));
    public static final ConfigKey<Duration> THROUGH_REFRESH = ConfigKey.of(
                    "client.through-refresh",
                    ValueType.DURATION,
                    Duration.ofMillis(200),
                    "How long a table's consistent-through is reused before it is read again. An older value only "
                            + "makes the cache look staler than it is, never fresher.")
            .checked(Check.positiveDuration());
    public static final ConfigDef DEF = ConfigDef.of("client", ENTRIES, THROUGH_REFRESH);

    /** Written back where nothing is known of the stream: any stored record, and every change, is above it. */
    static final Version FLOOR = Version.of(0, 0, 0);

    private final CacheStore store;
    private final ScnOrderedWriter writer;
    private final DebeziumKeys keys;
    private final String throughPrefix;
    private final int entries;
    private final long refreshMillis;
    private final Clock clock;
    private final RowSource rows;
    private final Map<String, Cached> through = new ConcurrentHashMap<>();
    private final Map<String, Listed> entryKeys = new ConcurrentHashMap<>();
    private final Counts counts = new Counts();

    private record Cached(Optional<Through> through, long readAtMillis) {}

    /** Whether closing the client closes the store: not a store the caller opened ({@link #over}). */
    private boolean ownsStore = true;

    NearlineClient(CacheStore store, Config config, RowSource rows, Clock clock) {
        this.store = store;
        this.writer = new ScnOrderedWriter(
                store,
                WriterSettings.from(config).withTtlByKeyPrefix(CacheUpdaterSettings.ttlByKeyPrefix(config)),
                Metrics.NONE);
        this.keys = CacheUpdaterSettings.debeziumKeys(config);
        this.throughPrefix = config.get(CacheUpdaterSettings.PUBLISH_THROUGH_KEY_PREFIX);
        this.entries = config.get(ENTRIES);
        this.refreshMillis = config.get(THROUGH_REFRESH).toMillis();
        this.clock = clock;
        this.rows = rows;
    }

    /**
     * A client of the store the job's settings name ({@code cache.store} and the store's own keys, the
     * {@code cdc.debezium.*} keys, the TTLs, {@code client.*}); {@code rows} reads through to the
     * database (null: {@link #read} is refused, {@link #get} works).
     */
    public static NearlineClient open(Config config, RowSource rows) {
        // the job's own keys (its Kafka among them) are the job's to check: a reader needs the store and the key rule
        config.validate(DEF, WriterSettings.DEF, CacheStores.provider(config).settings());
        CacheStore store = CacheStores.open(config);
        try {
            return new NearlineClient(store, config, rows, Clock.systemUTC());
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * A client over a store the caller has open and keeps (the local demo's embedded one, whose files only
     * one process may open): closing the client leaves it open.
     */
    public static NearlineClient over(CacheStore store, Config config, RowSource rows) {
        config.validate(DEF, WriterSettings.DEF);
        NearlineClient client = new NearlineClient(store, config, rows, Clock.systemUTC());
        client.ownsStore = false;
        return client;
    }

    /** The cache key of the row of {@code table} whose key columns hold {@code keyValues}. */
    public String key(String table, List<String> keyValues) {
        return RowKey.of(keys.prefixOf(table), keyValues);
    }

    /** The record the cache holds for the row, whatever its age; empty where it holds none. */
    public Optional<CachedRow> get(String table, List<String> keyValues) {
        return cached(key(table, keyValues));
    }

    private Optional<CachedRow> cached(String key) {
        return store.get(CacheKey.of(key)).map(stored -> {
            CacheRecord r = CacheRecordCodec.decode(stored.value());
            return new CachedRow(
                    key, r.tombstone() ? null : r.payload(), r.version(), r.writeTimeMillis(), r.sourcePartition());
        });
    }

    /**
     * How far the cache holds {@code table}, as the job published it: the oldest of its partitions'
     * entries; empty where nothing is published (or fewer than {@code client.entries}), or the store cannot list them.
     */
    public Optional<Through> consistentThrough(String table) {
        long now = clock.millis();
        Cached c = through.get(table);
        if (c == null || now - c.readAtMillis() >= refreshMillis) {
            c = new Cached(readThrough(table), now);
            through.put(table, c);
        }
        return c.through();
    }

    private Optional<Through> readThrough(String table) {
        Listed listed = entryKeys.get(table);
        long now = clock.millis();
        try {
            if (listed == null || now - listed.atMillis() >= RESCAN_MILLIS) {
                listed = new Listed(scan(table), now);
                entryKeys.put(table, listed);
            }
            List<ConsistentThroughEntry> found = read(listed.keys());
            if (found.size() < listed.keys().size() || found.size() < entries) {
                // a writer went away (its entry expired), or not every writer was there yet: look again
                listed = new Listed(scan(table), now);
                entryKeys.put(table, listed);
                found = read(listed.keys());
            }
            return oldest(found);
        } catch (UnsupportedOperationException cannotList) {
            return Optional.empty(); // Couchbase: the entries cannot be found, so nothing is known
        }
    }

    /** The entry keys of {@code table} a scan found, and when: read by key until {@link #RESCAN_MILLIS} has passed. */
    private record Listed(List<CacheKey> keys, long atMillis) {}

    /** How often the entries are listed again (a scan of the store) to find writers that started since. */
    static final long RESCAN_MILLIS = 10_000;

    private List<CacheKey> scan(String table) {
        List<CacheKey> keys = new ArrayList<>();
        String cursor = null;
        do {
            CacheStore.KeyPage page =
                    store.scanKeys(ConsistentThroughEntry.tablePrefix(throughPrefix, table), cursor, 1000);
            keys.addAll(page.keys());
            cursor = page.next();
        } while (cursor != null);
        return keys;
    }

    private List<ConsistentThroughEntry> read(List<CacheKey> keys) {
        List<ConsistentThroughEntry> found = new ArrayList<>();
        for (CacheKey key : keys) {
            store.get(key)
                    .map(stored -> CacheRecordCodec.decode(stored.value()))
                    .filter(r -> !r.tombstone())
                    .ifPresent(r -> found.add(ConsistentThroughEntry.of(r)));
        }
        return found;
    }

    private Optional<Through> oldest(List<ConsistentThroughEntry> found) {
        if (found.isEmpty() || found.size() < entries) {
            return Optional.empty(); // a partition or a task that has not published holds the table back
        }
        ConsistentThroughEntry oldest =
                found.stream().min((x, y) -> x.version().compareTo(y.version())).orElseThrow();
        long time = found.stream()
                .mapToLong(ConsistentThroughEntry::commitTimeMillis)
                .min()
                .orElseThrow();
        return Optional.of(new Through(time, oldest.version(), found.size()));
    }

    /**
     * The row of {@code table} whose key columns hold {@code keyValues}, no staler than {@code maxStaleness}:
     * from the cache when the table's consistent-through is within the bound and the key is cached;
     * otherwise from the database, written back (see the class comment).
     */
    public Read read(String table, Duration maxStaleness, List<String> keyValues) throws Exception {
        String key = key(table, keyValues);
        Optional<Through> known = consistentThrough(table);
        Optional<CachedRow> cached = cached(key);
        long now = clock.millis();
        if (cached.isEmpty()) {
            counts.misses.incrementAndGet();
        } else if (known.isEmpty()) {
            counts.unknown.incrementAndGet();
        } else if (known.get().stalenessMillis(now) > maxStaleness.toMillis()) {
            counts.tooStale.incrementAndGet();
        } else {
            long staleness = known.get().stalenessMillis(now);
            counts.served(staleness);
            CachedRow row = cached.get();
            return new Read(key, row.payload(), row.version(), Read.From.CACHE, staleness, null);
        }
        if (rows == null) {
            throw new IllegalStateException("the cache cannot answer " + key + " within " + maxStaleness
                    + " and the client has no database to read through (open it with a RowSource)");
        }
        Optional<byte[]> row = rows.read(table, keyValues);
        Version at = known.map(Through::version).orElse(FLOOR);
        CacheRecord back = row.isPresent() ? CacheRecord.upsert(at, 0, row.get()) : CacheRecord.tombstone(at, 0);
        WriteResult written = writer.write(CacheKey.of(key), back);
        counts.readsThrough.incrementAndGet();
        return new Read(
                key,
                row.orElse(null),
                at,
                Read.From.DATABASE,
                0,
                written.outcome().name().toLowerCase(Locale.ROOT));
    }

    /**
     * Read-your-writes: returns once every change of {@code table} committed at or before
     * {@code position} ({@link CommitPosition}) is in the cache, checking every {@code poll}.
     *
     * @throws TimeoutException where it is not so within {@code timeout} (a partition with no later change
     *     holds the table back until one comes: docs/reading.md)
     */
    public Through awaitCommit(String table, long position, Duration timeout, Duration poll)
            throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Optional<Through> now = readThrough(table);
        while (now.isEmpty() || !now.get().passed(position)) {
            if (System.nanoTime() >= deadline) {
                throw new TimeoutException(table + ": the cache has not passed commit position " + position + " within "
                        + timeout + " (it is through "
                        + now.map(t -> t.version().toString()).orElse("nothing published") + ")");
            }
            Thread.sleep(poll.toMillis());
            now = readThrough(table);
        }
        return now.get();
    }

    /** What the reads did so far. */
    public ReadCounts counts() {
        return counts.snapshot();
    }

    @Override
    public void close() {
        if (ownsStore) {
            store.close();
        }
    }

    /**
     * Reads so far: served from the cache ({@code hits}), read through because the key was absent
     * ({@code misses}), too stale for the bound, or of a table with nothing published ({@code unknown});
     * the staleness the hits were served at.
     */
    public record ReadCounts(
            long hits,
            long misses,
            long tooStale,
            long unknown,
            long readsThrough,
            long maxStalenessServedMillis,
            long sumStalenessServedMillis) {}

    private static final class Counts {
        final AtomicLong hits = new AtomicLong();
        final AtomicLong misses = new AtomicLong();
        final AtomicLong tooStale = new AtomicLong();
        final AtomicLong unknown = new AtomicLong();
        final AtomicLong readsThrough = new AtomicLong();
        final AtomicLong maxStaleness = new AtomicLong();
        final AtomicLong sumStaleness = new AtomicLong();

        void served(long stalenessMillis) {
            hits.incrementAndGet();
            maxStaleness.accumulateAndGet(stalenessMillis, Math::max);
            sumStaleness.addAndGet(stalenessMillis);
        }

        ReadCounts snapshot() {
            return new ReadCounts(
                    hits.get(),
                    misses.get(),
                    tooStale.get(),
                    unknown.get(),
                    readsThrough.get(),
                    maxStaleness.get(),
                    sumStaleness.get());
        }
    }
}
