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
package io.nearline.localcluster.clusterio;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.store.CacheStore;
import io.nearline.jobs.cluster.ClusterOption;
import io.nearline.jobs.cluster.LiveStores;
import io.nearline.jobs.kit.console.LinesFile;
import io.nearline.localcluster.cdcreference.ReplayInput;
import io.nearline.localcluster.cdcreference.StateDump;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nearline dump}: a live store's records for the keys of a change log, as a state dump. */
@Command(
        name = "dump",
        mixinStandardHelpOptions = true,
        description = "Write the live store's records for every key of a change log in the state-dump form of "
                + "'replay cdc --out' (tombstones included, absent keys left out), for check --state or a diff.")
public final class DumpCommand implements Callable<Integer> {

    @Option(
            names = "--store",
            required = true,
            paramLabel = "STORE",
            description = "couchbase or redis: the cluster's cache, as its cluster file names it.")
    String store;

    @Mixin
    ClusterOption cluster;

    @Option(
            names = "--keys-from",
            required = true,
            paramLabel = "FILE",
            description = "A change log whose keys to dump; repeatable.")
    List<Path> keysFrom;

    @Option(names = "--out", required = true, paramLabel = "STATE.jsonl", description = "Where the dump goes.")
    Path out;

    @Override
    public Integer call() {
        Set<CacheKey> keys = new TreeSet<>();
        for (ReplayInput.Line line : ReplayInput.read(keysFrom)) {
            if (line.decoded().ok()) {
                ChangeEvents.validCacheKey(line.decoded().event()).ifPresent(keys::add);
            }
        }
        try (CacheStore cache = LiveStores.open(store, cluster.read())) {
            List<String> lines = StateDump.lines(cache, keys);
            LinesFile.write(out, lines);
            System.out.printf("dumped %,d records of %,d keys to %s%n", lines.size(), keys.size(), out);
        }
        return 0;
    }
}
