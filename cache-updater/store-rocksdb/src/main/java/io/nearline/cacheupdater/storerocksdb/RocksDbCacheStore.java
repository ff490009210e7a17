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
package io.nearline.cacheupdater.storerocksdb;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreException;
import io.nearline.common.store.StoreUnavailableException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default {@link CacheStore}: one RocksDB database in this process.
 *
 * <p>On disk each value is {@code [expiresAtMillis:int64][cas:int64][value]}. Compare-and-swap is made
 * atomic by a lock per key stripe around read-check-write, so it is correct for any number of writer
 * threads in this JVM; writers in other processes must reach the cache through a networked store.
 * Expired records are invisible at once and deleted by a periodic purge. CAS tokens come from a
 * wall-clock-seeded counter, so they stay unique across a reopen.
 *
 * <p>Only long-stable RocksDB Java API is used, so the store runs on the {@code org.rocksdb} JNI the
 * JVM already has: Flink's frocksdbjni 8.x, Samza's rocksdbjni 7.x, or rocksdbjni 11.x.
 *
 * <p>Lifecycle: {@link #open} creates or reopens the database; operations are thread-safe; {@link #close}
 * waits for operations in flight, is idempotent, and later operations throw {@link StoreException}.
 */
public final class RocksDbCacheStore implements CacheStore {

    private static final Logger LOG = LoggerFactory.getLogger(RocksDbCacheStore.class);
    private static final int HEADER = 16;
    private static final int STRIPES = 1024;

    private final RocksDbStoreSettings settings;
    private final Options options;
    private final WriteOptions writeOptions;
    private final RocksDB db;
    private final Clock clock;
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];
    // Operations share it, close takes it exclusively: closing RocksDB under a running call crashes the JVM.
    private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private final AtomicLong lastCas = new AtomicLong();
    private final ScheduledExecutorService purger;
    private volatile boolean closed;

    private RocksDbCacheStore(RocksDbStoreSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
        RocksDB.loadLibrary();
        try {
            Files.createDirectories(settings.path());
        } catch (IOException e) {
            throw new StoreException("cannot create RocksDB directory " + settings.path() + ": " + e.getMessage(), e);
        }
        this.options = new Options()
                .setCreateIfMissing(true)
                // A cache overwrites the same keys over and over: a put no larger than the value in the
                // memtable overwrites it there instead of adding an entry, so the memtable stays one entry
                // per key and a get searches that. It gives up point-in-time iterators and snapshots, which
                // this store never uses (the purge re-reads each key under its lock). Needs the memtable
                // written by one thread at a time.
                .setInplaceUpdateSupport(true)
                .setAllowConcurrentMemtableWrite(false);
        this.writeOptions = new WriteOptions().setSync(settings.syncWrites());
        try {
            this.db = RocksDB.open(options, settings.path().toString());
        } catch (RocksDBException e) {
            options.close();
            writeOptions.close();
            throw new StoreException(
                    "cannot open RocksDB at " + settings.path() + ": " + e.getMessage()
                            + " (is another process using it?)",
                    e);
        }
        if (settings.purgeInterval().isZero()) {
            this.purger = null;
        } else {
            this.purger = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "rocksdb-cache-purge");
                t.setDaemon(true);
                return t;
            });
            long every = settings.purgeInterval().toMillis();
            purger.scheduleWithFixedDelay(this::purgeQuietly, every, every, TimeUnit.MILLISECONDS);
        }
    }

    public static RocksDbCacheStore open(RocksDbStoreSettings settings) {
        return new RocksDbCacheStore(settings, Clock.systemUTC());
    }

    /** With a clock of the caller's (tests move it to expire records). */
    public static RocksDbCacheStore open(RocksDbStoreSettings settings, Clock clock) {
        return new RocksDbCacheStore(settings, clock);
    }

    /** In key order; the cursor is the last key listed. */
    @Override
    public KeyPage scanKeys(String prefix, String cursor, int limit) {
        return guarded(() -> {
            byte[] start = (cursor == null ? prefix : cursor).getBytes(StandardCharsets.UTF_8);
            byte[] head = prefix.getBytes(StandardCharsets.UTF_8);
            List<CacheKey> keys = new ArrayList<>();
            try (RocksIterator it = db.newIterator()) {
                for (it.seek(start); it.isValid(); it.next()) {
                    byte[] key = it.key();
                    if (!startsWith(key, head)) {
                        return new KeyPage(keys, null);
                    }
                    if (cursor != null && Arrays.equals(key, start)) {
                        continue;
                    }
                    keys.add(CacheKey.of(new String(key, StandardCharsets.UTF_8)));
                    if (keys.size() == limit) {
                        return new KeyPage(keys, keys.get(keys.size() - 1).value());
                    }
                }
            }
            return new KeyPage(keys, null);
        });
    }

    private static boolean startsWith(byte[] key, byte[] head) {
        return key.length >= head.length && Arrays.equals(key, 0, head.length, head, 0, head.length);
    }

    @Override
    public Optional<Stored> get(CacheKey key) {
        return guarded(() -> {
            byte[] raw = db.get(key.utf8());
            if (raw == null || expired(raw)) {
                return Optional.empty();
            }
            return Optional.of(new Stored(value(raw), cas(raw)));
        });
    }

    @Override
    public WriteResult insertIfAbsent(CacheKey key, byte[] value, Duration expiry) {
        CacheStore.requireFiniteExpiry(expiry);
        byte[] k = key.utf8();
        return locked(k, () -> {
            byte[] raw = db.get(k);
            if (raw != null && !expired(raw)) {
                return WriteResult.of(Status.EXISTS);
            }
            return put(k, value, expiry);
        });
    }

    @Override
    public WriteResult replaceIfCasMatches(CacheKey key, byte[] value, long expectedCas, Duration expiry) {
        CacheStore.requireFiniteExpiry(expiry);
        byte[] k = key.utf8();
        return locked(k, () -> {
            byte[] raw = db.get(k);
            if (raw == null || expired(raw)) {
                return WriteResult.of(Status.NOT_FOUND);
            }
            if (cas(raw) != expectedCas) {
                return WriteResult.of(Status.CAS_MISMATCH);
            }
            return put(k, value, expiry);
        });
    }

    /** One read: the key's lock is held across the read, the decision and the write. */
    @Override
    public WriteResult writeDecided(CacheKey key, Duration expiry, Function<Optional<byte[]>, byte[]> decide) {
        CacheStore.requireFiniteExpiry(expiry);
        byte[] k = key.utf8();
        return locked(k, () -> {
            byte[] raw = db.get(k);
            byte[] value = decide.apply(raw == null || expired(raw) ? Optional.empty() : Optional.of(value(raw)));
            return value == null ? null : put(k, value, expiry);
        });
    }

    @Override
    public WriteResult upsert(CacheKey key, byte[] value, Duration expiry) {
        CacheStore.requireFiniteExpiry(expiry);
        byte[] k = key.utf8();
        return locked(k, () -> put(k, value, expiry));
    }

    @Override
    public Health health() {
        return closed ? Health.down("RocksDB store at " + settings.path() + " is closed") : Health.up();
    }

    /** Deletes every expired record now; returns how many. Runs by itself every purge interval. */
    public long purgeExpired() {
        return guarded(() -> {
            long purged = 0;
            try (RocksIterator it = db.newIterator()) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    if (expired(it.value())) {
                        byte[] k = it.key();
                        // re-check under the key's lock: a writer may have just renewed it
                        purged += locked(k, () -> {
                            byte[] raw = db.get(k);
                            if (raw != null && expired(raw)) {
                                db.delete(writeOptions, k);
                                return 1L;
                            }
                            return 0L;
                        });
                    }
                }
            }
            return purged;
        });
    }

    /** Entries in the memtable being written (for tests: in-place overwrites do not add any). */
    long activeMemtableEntries() {
        return guarded(() -> db.getLongProperty("rocksdb.num-entries-active-mem-table"));
    }

    /** Records on disk, expired or not (for tests and diagnostics; scans the whole database). */
    long storedRecordCount() {
        return guarded(() -> {
            long n = 0;
            try (RocksIterator it = db.newIterator()) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    n++;
                }
            }
            return n;
        });
    }

    @Override
    public void close() {
        lifecycle.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            if (purger != null) {
                purger.shutdownNow();
            }
            db.close();
            writeOptions.close();
            options.close();
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    // ---- internals -----------------------------------------------------------------------------

    private WriteResult put(byte[] key, byte[] value, Duration expiry) throws RocksDBException {
        long cas = nextCas();
        ByteBuffer raw = ByteBuffer.allocate(HEADER + value.length);
        raw.putLong(clock.millis() + expiry.toMillis()).putLong(cas).put(value);
        db.put(writeOptions, key, raw.array());
        return WriteResult.ok(cas);
    }

    private long nextCas() {
        // Seeded from wall-clock time so that tokens handed out before a reopen are not handed out again.
        long floor = System.currentTimeMillis() << 16;
        return lastCas.updateAndGet(prev -> Math.max(prev + 1, floor));
    }

    private boolean expired(byte[] raw) {
        return ByteBuffer.wrap(raw, 0, 8).getLong() <= clock.millis();
    }

    private static long cas(byte[] raw) {
        return ByteBuffer.wrap(raw, 8, 8).getLong();
    }

    private static byte[] value(byte[] raw) {
        byte[] v = new byte[raw.length - HEADER];
        System.arraycopy(raw, HEADER, v, 0, v.length);
        return v;
    }

    private interface Op<T> {
        T run() throws RocksDBException;
    }

    private <T> T locked(byte[] key, Op<T> op) {
        ReentrantLock stripe = stripes[Math.floorMod(Arrays.hashCode(key), STRIPES)];
        return guarded(() -> {
            stripe.lock();
            try {
                return op.run();
            } finally {
                stripe.unlock();
            }
        });
    }

    private <T> T guarded(Op<T> op) {
        lifecycle.readLock().lock();
        try {
            if (closed) {
                throw new StoreException("RocksDB store at " + settings.path() + " is closed");
            }
            return op.run();
        } catch (RocksDBException e) {
            throw translate(e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    private StoreException translate(RocksDBException e) {
        // org.rocksdb.Status, not the CacheStore.Status this class inherits
        org.rocksdb.Status status = e.getStatus();
        org.rocksdb.Status.Code code = status == null ? null : status.getCode();
        if (code == org.rocksdb.Status.Code.Busy
                || code == org.rocksdb.Status.Code.TryAgain
                || code == org.rocksdb.Status.Code.TimedOut
                || code == org.rocksdb.Status.Code.Incomplete) {
            return new StoreUnavailableException("RocksDB busy at " + settings.path() + ": " + e.getMessage(), e);
        }
        return new StoreException("RocksDB error at " + settings.path() + ": " + e.getMessage(), e);
    }

    private void purgeQuietly() {
        try {
            long n = purgeExpired();
            if (n > 0) {
                LOG.debug("purged {} expired records from {}", n, settings.path());
            }
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.warn("purge of expired records in {} failed; will retry", settings.path(), e);
            }
        }
    }
}
