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

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.common.testkit.ChangeEventGenerator;
import io.nearline.localcluster.kit.processes.Home;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nearline bench bootstrap}: the bootstrapper's rate into the store on each engine, against the store's ceiling. */
@Command(
        name = "bootstrap",
        mixinStandardHelpOptions = true,
        description = {
            "Replay a generated snapshot (one row per key) through the bootstrapper into the RocksDB store "
                    + "on each engine, with no live stream, and report its steady rate in bootstrap records per second."
        })
public final class BenchBootstrapCommand implements Callable<Integer> {

    @Mixin
    BenchRunOptions run = new BenchRunOptions(2);

    @Option(names = "--rows", defaultValue = "1000000", description = "Snapshot rows (default: ${DEFAULT-VALUE}).")
    int rows;

    @Mixin
    Benches.Settings settings = new Benches.Settings();

    @Override
    public Integer call() throws Exception {
        Benches.positive("--rows", rows, "--partitions", run.partitions, "--parallelism", run.parallelism);
        run.requireEngines(List.of("flink", "samza"));
        return WorkDirs.inWorkDir(run.workDir, "nearline-bench-bootstrap", this::bench);
    }

    private int bench(Path work) throws Exception {
        Path snapshot = work.resolve("snapshot.jsonl");
        Path noEvents = Files.writeString(work.resolve("no-events.jsonl"), "");
        ChangeEventGenerator.writeSnapshot(snapshot, rows);
        System.out.printf("bench bootstrap: a snapshot of %,d rows in %s%n", rows, snapshot);
        // the snapshot's rows are change events: the same ordered writes the bootstrapper makes
        double ceiling = Benches.storeCeiling(
                "bootstrap",
                snapshot,
                Map.of(
                        "cache.store",
                        "rocksdb",
                        "rocksdb.path",
                        work.resolve("ceiling-rocksdb").toString()),
                run.parallelism,
                "rows/s");
        Map<String, ObjectNode> members = new LinkedHashMap<>();
        for (String engine : run.engines) {
            Path summary = work.resolve("summary-" + engine + ".json");
            List<String> args = new ArrayList<>(List.of(
                    "--events",
                    noEvents.toString(),
                    "--snapshot",
                    snapshot.toString(),
                    "--out",
                    work.resolve("state-" + engine + ".jsonl").toString()));
            args.addAll(run.runnerArgs(work.resolve(engine), summary));
            int code = Home.runBench(
                    engine, "replay-cdc", List.of(Benches.withSettings(settings.values, args.toArray(String[]::new))));
            if (code != 0) {
                return code;
            }
            ObjectNode replay = Benches.readJson(summary);
            ObjectNode m = Benches.JSON.createObjectNode();
            long rowsPerSec = replay.path("bootstrapRecordsPerSec").asLong(-1);
            m.put("rowsPerSec", rowsPerSec);
            m.put("ceilingPerSec", Math.round(ceiling));
            m.put("rowsPerCeiling", Benches.ratio(rowsPerSec, ceiling));
            boolean complete = replay.path("bootstrapPartitionsComplete").asLong() == run.partitions;
            if (!complete) {
                System.out.println("  " + engine + ": the snapshot did not verify complete on every partition");
            }
            m.put(
                    "verified",
                    complete
                            && Benches.stateMatches(
                                    engine, List.of(snapshot), work.resolve("state-" + engine + ".jsonl")));
            m.set("replay", replay);
            members.put(engine, m);
        }
        return Benches.finish(
                String.format(
                        "bench bootstrap (%,d rows, %d partitions, parallelism %d)",
                        rows, run.partitions, run.parallelism),
                members,
                engine -> work.resolve("state-" + engine + ".jsonl"),
                run.summaryJson);
    }
}
