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
import io.nearline.jobs.kit.processes.Home;
import io.nearline.localcluster.kit.baselines.BlindWrites;
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

    @Option(
            names = "--against",
            paramLabel = "blind",
            description = "blind: each engine also runs the same snapshot right after its ordered run, into an "
                    + "empty store, with the store's guarded writes made blind upserts (no read, no version "
                    + "compare: what a plain sink does); the summary gains against and againstRatio.")
    String against;

    @Mixin
    Benches.Settings settings = new Benches.Settings();

    @Override
    public Integer call() throws Exception {
        Benches.positive("--rows", rows, "--partitions", run.partitions, "--parallelism", run.parallelism);
        run.requireEngines(List.of("flink", "samza"));
        run.requireRounds(against);
        if (against != null) {
            Benches.requireBlind(against, "bootstrap", run.engines);
        }
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
            Run orderedRun = runEngine(engine, work, snapshot, noEvents, "", settings.values);
            if (orderedRun.code() != 0) {
                return orderedRun.code();
            }
            ObjectNode ordered = orderedRun.summary();
            ObjectNode m = Benches.JSON.createObjectNode();
            long rowsPerSec = ordered.path("bootstrapRecordsPerSec").asLong(-1);
            m.put("rowsPerSec", rowsPerSec);
            m.put("ceilingPerSec", Math.round(ceiling));
            m.put("rowsPerCeiling", Benches.ratio(rowsPerSec, ceiling));
            m.put("verified", verified(engine, ordered, snapshot, work.resolve("state-" + engine + ".jsonl")));
            m.set("replay", ordered);
            if (against != null) {
                int code = againstBlind(engine, work, snapshot, noEvents, m);
                if (code != 0) {
                    return code;
                }
            }
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

    /**
     * {@code --against blind}: the snapshot again with blind writes ({@code BlindWrites}), and with
     * {@code --rounds} more pairs, ordered then blind ({@link Benches#alternate}); the figures go into the
     * engine's member {@code m}, whose first ordered run is the bench's main one.
     */
    private int againstBlind(String engine, Path work, Path snapshot, Path noEvents, ObjectNode m) throws Exception {
        int code = Benches.alternate(
                m,
                "rowsPerSec",
                "blind",
                run.rounds,
                r -> measured(engine, r, work, snapshot, noEvents, settings.values),
                r -> measured(engine, "-blind" + r, work, snapshot, noEvents, Benches.blind(settings.values)));
        if (code == 0 && run.rounds > 1) {
            m.put(
                    "rowsPerCeiling",
                    Benches.ratio(
                            m.path("rowsPerSec").asLong(),
                            m.path("ceilingPerSec").asLong()));
        }
        return code;
    }

    /** One more run of the snapshot, checked: complete, and a blind one by {@link Benches#blindVerified}. */
    private Benches.Measured measured(
            String engine, String suffix, Path work, Path snapshot, Path noEvents, Map<String, String> values)
            throws Exception {
        Run again = runEngine(engine, work, snapshot, noEvents, suffix, values);
        if (again.code() != 0) {
            return Benches.Measured.failed(again.code());
        }
        Path state = work.resolve("state-" + engine + suffix + ".jsonl");
        boolean verified = values.containsKey(BlindWrites.SETTING)
                ? complete(engine + suffix, again.summary())
                        && Benches.blindVerified(
                                engine + suffix.replace("-blind", ""), again.summary(), List.of(snapshot), state)
                : verified(engine + suffix, again.summary(), snapshot, state);
        return new Benches.Measured(
                0, again.summary().path("bootstrapRecordsPerSec").asLong(-1), verified);
    }

    /** A runner's exit code, and its summary where it ran to the end. */
    private record Run(int code, ObjectNode summary) {}

    /** One engine's run of the snapshot, its files named with {@code suffix}. */
    private Run runEngine(
            String engine, Path work, Path snapshot, Path noEvents, String suffix, Map<String, String> values)
            throws Exception {
        Path summary = work.resolve("summary-" + engine + suffix + ".json");
        List<String> args = new ArrayList<>(List.of(
                "--events",
                noEvents.toString(),
                "--snapshot",
                snapshot.toString(),
                "--out",
                work.resolve("state-" + engine + suffix + ".jsonl").toString()));
        args.addAll(run.runnerArgs(work.resolve(engine + suffix), summary));
        int code =
                Home.runBench(engine, "replay-cdc", List.of(Benches.withSettings(values, args.toArray(String[]::new))));
        return new Run(code, code == 0 ? Benches.readJson(summary) : null);
    }

    /** A run verifies when every partition's snapshot verified complete and the state is the snapshot's. */
    private boolean verified(String engine, ObjectNode replay, Path snapshot, Path state) {
        return complete(engine, replay) && Benches.stateMatches(engine, List.of(snapshot), state);
    }

    private boolean complete(String engine, ObjectNode replay) {
        boolean complete = replay.path("bootstrapPartitionsComplete").asLong() == run.partitions;
        if (!complete) {
            System.out.println("  " + engine + ": the snapshot did not verify complete on every partition");
        }
        return complete;
    }
}
