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
package io.nearline.lxctestbed.drillrunner;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.kit.console.SummaryJsonOption;
import io.nearline.jobs.kit.processes.Home;
import io.nearline.localcluster.kit.options.SeedOption;
import io.nearline.lxctestbed.testbed.TestbedCommand;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nearline drill list | run DRILL|all}: failure drills against a job on the testbed. */
@Command(
        name = "drill",
        mixinStandardHelpOptions = true,
        description = {
            "Failure drills: a job deployed to the testbed under load while a fault from lxc-testbed/drills/ hits it "
                    + "(a node killed, frozen or cut off, a container or the AM killed, a slow, lossy or delayed "
                    + "link, the broker restarted, the store out), then healed, drained and checked.",
            "%nEach run writes lxc-testbed/store/<drill>/<UTC time>/ (results.json, history.jsonl, faults.jsonl, "
                    + "timeline.png, report.md); lxc-testbed/store/latest points to the newest. Needs a testbed: "
                    + "'bin/nearline testbed up'.%n"
        },
        subcommands = {DrillCommand.ListDrills.class, DrillCommand.Run.class})
public final class DrillCommand implements Runnable {

    @Override
    public void run() {
        System.out.println("usage: nearline drill list | run DRILL|all [--engine flink|samza] (see --help)");
    }

    static Path folder() {
        return Home.dir().resolve(Drill.FOLDER);
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The drills there are, one line each.")
    static final class ListDrills implements Callable<Integer> {
        @Override
        public Integer call() {
            for (Drill d : Drill.all(folder())) {
                System.out.printf("%-16s %s%n", d.name(), d.description());
            }
            return 0;
        }
    }

    @Command(
            name = "run",
            mixinStandardHelpOptions = true,
            description = {
                "Run one drill, or all of them (on both engines unless --engine says which). Exit 0 iff every run is "
                        + "valid: its faults were applied, YARN noticed a lost node within the drill's limit, the job "
                        + "caught up and the cache matches the source of truth key for key."
            })
    static final class Run implements Callable<Integer> {

        @Parameters(
                index = "0",
                paramLabel = "DRILL|all|baseline",
                description = "A drill's name (see drill list), all, or baseline: what the job sustains on the testbed "
                        + "with no fault, which the drills then load a share of.")
        String name;

        @Option(
                names = "--load-fraction",
                defaultValue = "0.25",
                paramLabel = "F",
                description = "The drills' load as a share of the job's baseline on that engine (default: "
                        + "${DEFAULT-VALUE}); without a baseline, the drill file's rate.")
        double loadFraction;

        @Option(
                names = "--engine",
                paramLabel = "flink|samza",
                description = "The engine (default: samza for one drill, both for all).")
        String engine;

        @Option(
                names = "--job",
                defaultValue = "cache-updater",
                paramLabel = "JOB",
                description = "The job under the drill (default: ${DEFAULT-VALUE}).")
        String job;

        @Mixin
        SeedOption seed;

        @Option(
                names = "--testbed",
                defaultValue = TestbedCommand.DEFAULT_DIR,
                paramLabel = "DIR",
                description = "The testbed (default: ${DEFAULT-VALUE}).")
        Path testbed;

        @Mixin
        SummaryJsonOption summaryJson;

        @Override
        public Integer call() throws Exception {
            if (engine != null && !engine.equals("flink") && !engine.equals("samza")) {
                throw new ClusterException("--engine " + engine + ": give flink or samza");
            }
            if (!job.equals("cache-updater") && !job.equals("tracking-join")) {
                throw new ClusterException("--job " + job + ": give cache-updater or tracking-join");
            }
            String why = TestbedCommand.unavailableReason();
            if (why != null) {
                throw new ClusterException("drills need the testbed, and " + why);
            }
            if (!(loadFraction > 0 && loadFraction <= 1)) {
                throw new ClusterException("--load-fraction " + loadFraction
                        + ": give a share above 0, at most 1 (0.25 " + "loads a quarter of the baseline)");
            }
            boolean all = name.equals("all");
            Path home = Home.dir();
            DrillRun.Places places =
                    new DrillRun.Places(home, testbed.toAbsolutePath().normalize(), home.resolve("lxc-testbed/store"));
            if (name.equals("baseline")) {
                return baseline(places, engine != null ? List.of(engine) : List.of("samza", "flink"));
            }
            List<Drill> drills = all ? Drill.all(folder()) : List.of(Drill.named(folder(), name));
            List<String> engines =
                    engine != null ? List.of(engine) : all ? List.of("samza", "flink") : List.of("samza");
            List<DrillRun.Outcome> outcomes = new ArrayList<>();
            for (Drill d : drills) {
                if (!d.jobs().contains(job)) {
                    continue;
                }
                for (String e : engines) {
                    Baseline.Load load = Baseline.loadFor(d, places.store(), job, e, loadFraction);
                    DrillRun.Outcome o = runOne(new DrillRun(d, e, job, seed.value, places, load), d, e, all);
                    outcomes.add(o);
                    System.out.println((o.valid() ? "VALID" : "NOT VALID") + ": " + d.name() + " on " + e
                            + (o.folder() == null ? "" : " (" + o.folder().resolve("report.md") + ")"));
                    o.reasons().forEach(r -> System.out.println("  - " + r));
                }
            }
            if (all) {
                table(outcomes);
            }
            if (summaryJson.file != null) {
                writeSummary(outcomes);
            }
            return outcomes.stream().allMatch(DrillRun.Outcome::valid) && !outcomes.isEmpty() ? 0 : 1;
        }

        /**
         * {@code drill run baseline}: the job with no fault under more load than it takes, on each
         * engine; what it sustained is kept for the drills. Exit 0 when every run measured it with the
         * cache matching the source of truth.
         */
        private int baseline(DrillRun.Places places, List<String> engines) throws IOException, InterruptedException {
            boolean ok = true;
            Drill probe = Baseline.drill();
            Baseline.Load full = new Baseline.Load(probe.loadRate(), 1, null, null, "the baseline's own load");
            for (String e : engines) {
                DrillRun run = new DrillRun(probe, e, job, seed.value, places, full);
                DrillRun.Outcome o = run.run();
                Baseline.Measured m = Baseline.conclude(job, e, run, places.store());
                boolean correct = o.divergentKeys() == 0;
                ok &= correct;
                System.out.printf(
                        "BASELINE %s on %s: %s; %s (%s)%n",
                        job,
                        e,
                        m.sustainedPerSecond() == null
                                ? String.format(
                                        "kept up with all %,d a second sent: it sustains at least that", m.loadRate())
                                : String.format("sustained %,.0f a second", m.sustainedPerSecond()),
                        correct ? "output checked, 0 wrong" : o.divergentKeys() + " wrong after the drain",
                        Baseline.file(places.store(), job, e));
            }
            return ok ? 0 : 1;
        }

        /** One run; in {@code all}, one that could not start is a run not valid and the others go on. */
        private static DrillRun.Outcome runOne(DrillRun run, Drill d, String engine, boolean all)
                throws IOException, InterruptedException {
            if (!all) {
                return run.run();
            }
            try {
                return run.run();
            } catch (ClusterException x) {
                return new DrillRun.Outcome(d.name(), engine, false, -1, null, null, List.of(x.getMessage()), null);
            }
        }

        private void writeSummary(List<DrillRun.Outcome> outcomes) throws IOException {
            List<Map<String, Object>> json = new ArrayList<>();
            for (DrillRun.Outcome o : outcomes) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("drill", o.drill());
                m.put("engine", o.engine());
                m.put("valid", o.valid());
                m.put("divergentKeys", o.divergentKeys());
                m.put("detectionSeconds", o.detectionSeconds());
                m.put("recoverySeconds", o.recoverySeconds());
                m.put("reasons", o.reasons());
                m.put("report", o.folder() == null ? null : o.folder().toString());
                json.add(m);
            }
            new ObjectMapper().writeValue(summaryJson.file.toFile(), json);
        }

        private static void table(List<DrillRun.Outcome> outcomes) {
            System.out.printf(
                    "%n%-16s %-6s %-9s %9s %9s %9s  %s%n",
                    "DRILL", "ENGINE", "VALID", "DIVERGENT", "DETECT_S", "RECOVER_S", "WHY NOT");
            for (DrillRun.Outcome o : outcomes) {
                System.out.printf(
                        "%-16s %-6s %-9s %9s %9s %9s  %s%n",
                        o.drill(),
                        o.engine(),
                        o.valid() ? "valid" : "NOT VALID",
                        o.divergentKeys() < 0 ? "-" : Long.toString(o.divergentKeys()),
                        o.detectionSeconds() == null ? "-" : String.format("%.1f", o.detectionSeconds()),
                        o.recoverySeconds() == null ? "-" : String.format("%.1f", o.recoverySeconds()),
                        o.reasons().isEmpty() ? "" : o.reasons().get(0));
            }
            long valid = outcomes.stream().filter(DrillRun.Outcome::valid).count();
            System.out.printf("%d of %d runs valid%n", valid, outcomes.size());
        }
    }
}
