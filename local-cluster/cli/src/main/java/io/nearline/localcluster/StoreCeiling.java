package io.nearline.localcluster;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.events.ChangeEvents;
import io.nearline.cacheupdater.core.replay.ReplayInput;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.config.Config;
import io.nearline.common.console.RateMeter;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The embedded store's own ceiling for the cache updater's work: the same change events written
 * straight through the SCN-ordered write into a fresh RocksDB store with the job's default settings,
 * by {@code threads} threads, each key's events on one thread in file order (as a job's partitions
 * keep them); no Kafka, no engine, no decoding from the wire. What a job could reach at best here:
 * {@code bench cdc} reports job/ceiling. Rated like the job, between 10 % and 90 % of the writes.
 */
final class StoreCeiling {

    private StoreCeiling() {}

    static double measure(Path events, Path storeDir, int threads) throws InterruptedException {
        List<List<ChangeEvent>> shards = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            shards.add(new ArrayList<>());
        }
        long total = 0;
        for (ReplayInput.Line line : ReplayInput.read(List.of(events))) {
            if (line.decoded() != null && line.decoded().ok()) {
                ChangeEvent e = line.decoded().event();
                shards.get(Math.floorMod(e.getKey().hashCode(), threads)).add(e);
                total++;
            }
        }
        Config config = Config.of(Map.of("cache.store", "rocksdb", "rocksdb.path", storeDir.toString()));
        AtomicLong written = new AtomicLong();
        try (CacheStore store = CacheStores.open(config);
                RateMeter meter = new RateMeter(total, written::get)) {
            ScnOrderedWriter writer = new ScnOrderedWriter(store, WriterSettings.from(config), Metrics.NONE);
            List<Thread> workers = new ArrayList<>();
            for (List<ChangeEvent> shard : shards) {
                Thread worker = new Thread(
                        () -> {
                            for (ChangeEvent e : shard) {
                                writer.write(ChangeEvents.cacheKey(e), ChangeEvents.cacheRecord(e));
                                written.incrementAndGet();
                            }
                        },
                        "ceiling-writer");
                worker.start();
                workers.add(worker);
            }
            for (Thread worker : workers) {
                worker.join();
            }
            Thread.sleep(20); // the meter samples every 5 ms: let it see the last count
            return meter.steadyRate();
        }
    }
}
