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
package io.nearline.localcluster.microbench;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriteOutcome;
import io.nearline.cacheupdater.core.WriteResult;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.storerocksdb.RocksDbCacheStore;
import io.nearline.cacheupdater.storerocksdb.RocksDbStoreSettings;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.version.Version;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The price of correctness: the SCN-ordered write (read, compare, insert or CAS replace) against a
 * blind put of the same encoded record into the same kind of RocksDB store, one thread.
 *
 * <ul>
 *   <li>{@code blindUpsert}: encode + unconditional put, what an ordinary sink does.</li>
 *   <li>{@code orderedWriteNewer}: every write carries a newer SCN for its key, so every write applies.</li>
 *   <li>{@code orderedWriteReplay}: a replay of versions the store already has, so every write is a
 *       DUPLICATE and stops after the read.</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
        value = 3,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 4, time = 3)
public class ScnOrderedWriteBenchmark {

    @Param({"100000"})
    public int keys;

    @Param({"100"})
    public int payloadBytes;

    /** The order keys are written in: one after another, or shuffled (what a real stream looks like to the store). */
    @Param({"sequential", "random"})
    public String keyOrder;

    private static final Duration TTL = Duration.ofDays(1);

    private Path dir;
    private RocksDbCacheStore store;
    private ScnOrderedWriter writer;
    private CacheKey[] keyNames;
    private long[] nextScn;
    private byte[] payload;
    private int[] order;
    private int cursor;

    @Setup(Level.Trial)
    public void open() throws IOException {
        dir = Files.createTempDirectory("nearline-bench");
        store = RocksDbCacheStore.open(RocksDbStoreSettings.at(dir).withPurgeInterval(Duration.ZERO));
        writer = new ScnOrderedWriter(store, WriterSettings.defaults().withTtl(TTL), Metrics.NONE);
        keyNames = new CacheKey[keys];
        nextScn = new long[keys];
        for (int i = 0; i < keys; i++) {
            keyNames[i] = CacheKey.of("member:" + i);
        }
        order = new int[keys];
        for (int i = 0; i < keys; i++) {
            order[i] = i;
        }
        if (keyOrder.equals("random")) {
            Random shuffle = new Random(7);
            for (int i = keys - 1; i > 0; i--) {
                int j = shuffle.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }
        payload = new byte[payloadBytes];
        new Random(1).nextBytes(payload);
        // Every key present, so the ordered write takes its common path (read + CAS replace).
        for (int i = 0; i < keys; i++) {
            writer.write(keyNames[i], CacheRecord.upsert(Version.of(nextScn[i]++, 1), 0, payload));
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        store.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private int nextKey() {
        int k = order[cursor];
        cursor = cursor + 1 == keys ? 0 : cursor + 1;
        return k;
    }

    @Benchmark
    public CacheStore.WriteResult blindUpsert() {
        int k = nextKey();
        CacheRecord record =
                CacheRecord.upsert(Version.of(nextScn[k]++, 1), 0, payload).withWriteTime(System.currentTimeMillis());
        return store.upsert(keyNames[k], CacheRecordCodec.encode(record), TTL);
    }

    @Benchmark
    public WriteResult orderedWriteNewer() {
        int k = nextKey();
        WriteResult r = writer.write(keyNames[k], CacheRecord.upsert(Version.of(nextScn[k]++, 1), 0, payload));
        if (r.outcome() != WriteOutcome.APPLIED) {
            throw new IllegalStateException("expected APPLIED, got " + r);
        }
        return r;
    }

    @Benchmark
    public WriteResult orderedWriteReplay() {
        int k = nextKey();
        // the version most recently stored for this key: a duplicate delivery
        WriteResult r = writer.write(keyNames[k], CacheRecord.upsert(Version.of(nextScn[k] - 1, 1), 0, payload));
        if (r.outcome() == WriteOutcome.FAILED || r.outcome() == WriteOutcome.APPLIED) {
            throw new IllegalStateException("expected a no-op, got " + r);
        }
        return r;
    }
}
