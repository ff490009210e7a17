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
package io.nearline.localcluster.bench;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.storerocksdb.RocksDbCacheStore;
import io.nearline.cacheupdater.storerocksdb.RocksDbStoreSettings;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.jobs.kit.console.Progress;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nearline race}: racing writers into the embedded store, ordered write against a blind sink. */
@Command(
        name = "race",
        mixinStandardHelpOptions = true,
        description = {
            "Race writers on the same keys into the embedded cache; check every key ends at its newest version.",
            "%nLike the cache updater, the bootstrapper and read-repair in production, each version of a key "
                    + "reaches one or two writers, each in a scrambled order. The same race through a blind sink "
                    + "(put whatever arrives) runs for comparison. Exits 0 when the SCN-ordered write leaves no key behind.%n"
        })
public final class RaceCommand implements Callable<Integer> {

    @Option(names = "--keys", defaultValue = "2000", description = "Keys to race on (default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(
            names = "--versions",
            defaultValue = "25",
            description = "Committed versions per key (default: ${DEFAULT-VALUE}).")
    int versions;

    @Option(names = "--writers", defaultValue = "4", description = "Concurrent writers (default: ${DEFAULT-VALUE}).")
    int writers;

    @Option(
            names = "--delete-ratio",
            defaultValue = "0.1",
            description = "Share of versions that are deletes (default: ${DEFAULT-VALUE}).")
    double deleteRatio;

    @Option(names = "--seed", description = "Workload seed (default: random; printed so a run can be repeated).")
    Long seed;

    @Option(
            names = "--dir",
            description = "Where the RocksDB stores go (default: a temporary directory, removed afterwards).")
    Path dir;

    @Option(
            names = "--no-baseline",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "Also run the blind-sink baseline (default: on; --no-baseline skips it).")
    boolean baseline;

    private final PrintStream out = System.out;

    @Override
    public Integer call() throws Exception {
        if (keys < 1 || versions < 1 || writers < 1 || deleteRatio < 0 || deleteRatio > 1) {
            throw new IllegalArgumentException(
                    "--keys, --versions and --writers must be >= 1 and --delete-ratio between 0 and 1");
        }
        long s = seed != null ? seed : System.nanoTime();
        boolean temporary = dir == null;
        Path root = temporary ? Files.createTempDirectory("nearline-race") : Files.createDirectories(dir);
        try {
            Race.Workload workload = Race.workload(s, keys, versions, writers, deleteRatio);
            out.printf(
                    "race: %,d keys x %d versions, %d writers, %,d deliveries, seed %d%n",
                    keys, versions, writers, workload.deliveries(), s);
            boolean ok = raceOrdered(workload, root.resolve("ordered"));
            if (baseline) {
                raceBlind(workload, root.resolve("blind"));
            }
            out.println(
                    ok ? "OK: every key holds its newest version." : "FAILED: the SCN-ordered write left keys behind.");
            return ok ? 0 : 1;
        } finally {
            if (temporary) {
                WorkDirs.deleteTree(root);
            }
        }
    }

    private boolean raceOrdered(Race.Workload workload, Path path) throws Exception {
        InMemoryMetrics metrics = new InMemoryMetrics();
        try (RocksDbCacheStore store = RocksDbCacheStore.open(RocksDbStoreSettings.at(path))) {
            ScnOrderedWriter writer = new ScnOrderedWriter(store, WriterSettings.defaults(), metrics);
            long started = System.nanoTime();
            try (Progress progress = new Progress("SCN-ordered writes", workload.deliveries(), System.err)) {
                Race.run(workload, Race.ordered(writer), progress);
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            List<Race.Divergence> divergent = Race.check(workload, store);
            out.printf(
                    "%nSCN-ordered write   %,d writes in %.2f s (%,.0f/s)%n",
                    workload.deliveries(), seconds, workload.deliveries() / seconds);
            out.printf(
                    "  applied %,d  stale %,d  duplicate %,d  failed %,d  CAS conflicts retried %,d%n",
                    metrics.count("write.applied"),
                    metrics.count("write.stale"),
                    metrics.count("write.duplicate"),
                    metrics.count("write.failed"),
                    metrics.count("write.retries.conflict"));
            report(workload, divergent);
            return divergent.isEmpty();
        }
    }

    private void raceBlind(Race.Workload workload, Path path) throws Exception {
        try (RocksDbCacheStore store = RocksDbCacheStore.open(RocksDbStoreSettings.at(path))) {
            long started = System.nanoTime();
            try (Progress progress = new Progress("blind writes", workload.deliveries(), System.err)) {
                Race.run(workload, Race.blind(store, WriterSettings.defaults().ttl()), progress);
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            out.printf(
                    "%nblind sink (baseline) %,d writes in %.2f s (%,.0f/s)%n",
                    workload.deliveries(), seconds, workload.deliveries() / seconds);
            report(workload, Race.check(workload, store));
        }
    }

    private void report(Race.Workload workload, List<Race.Divergence> divergent) {
        out.printf(
                "  keys checked %,d  divergent %,d (%.1f%%)%n",
                workload.newest().size(),
                divergent.size(),
                100.0 * divergent.size() / workload.newest().size());
        divergent.stream()
                .limit(3)
                .forEach(d -> out.printf("    e.g. %s holds %s, newest is %s%n", d.key(), d.holds(), d.newest()));
    }
}
