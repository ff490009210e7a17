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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.nearline.jobs.cluster.ClusterException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a job sustains on the testbed, and the drills' load as a share of it. {@code drill run baseline}
 * deploys the job with no fault and sends more than it can take; the rate it works off the backlog at
 * is its baseline, kept in {@code STORE/baseline/JOB-ENGINE.json}. A drill then loads the job at a set
 * fraction of that (a quarter by default), so a fault lands on a job doing real work.
 */
final class Baseline {

    /** The baseline's own load: more than either engine takes on the testbed, for long enough to measure. */
    static final int PROBE_RATE = 12_000;

    static final int PROBE_SECONDS = 40;

    /** Seconds of warm-up (containers starting, caches filling) left out of the measure. */
    private static final double WARM_UP = 8;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** A measured baseline: units a second the job sustained, and when. */
    record Measured(
            String job, String engine, Double sustainedPerSecond, int loadRate, String measuredAt, String run) {}

    /** The drill's load: its rate and where that came from, as the report and results.json give it. */
    record Load(int rate, double fraction, Double baselinePerSecond, String baselineMeasuredAt, String note) {

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("rate", rate);
            m.put("fraction", baselinePerSecond == null ? null : fraction);
            m.put("baselinePerSecond", baselinePerSecond);
            m.put("baselineMeasuredAt", baselineMeasuredAt);
            m.put("note", note);
            return m;
        }
    }

    private Baseline() {}

    /** The drill with no fault that measures it. */
    static Drill drill() {
        return new Drill(
                "baseline",
                "No fault: " + PROBE_RATE + " units a second for " + PROBE_SECONDS
                        + " s, more than the job takes; what it sustains is the rate it works off the backlog at.",
                List.of("cache-updater", "tracking-join"),
                PROBE_RATE,
                PROBE_SECONDS,
                List.of(),
                Duration.ofSeconds(60),
                null);
    }

    /**
     * The sustained rate from a run's per-second history: the slope of the units done over the seconds
     * the job was behind by more than {@code steadyBacklog}, from the warm-up's end or the first unit
     * done, whichever is later (a job still starting sustains nothing yet); null when it never was
     * behind (the load did not saturate it: it sustains at least the load's rate).
     */
    static Double sustained(List<Timeline.Second> history, long steadyBacklog) {
        Timeline.Second first = null;
        Timeline.Second last = null;
        for (Timeline.Second s : history) {
            boolean saturated = s.t() >= WARM_UP
                    && s.applied() != null
                    && s.applied() > 0
                    && s.consumerLag() != null
                    && s.consumerLag() > steadyBacklog;
            if (saturated) {
                first = first == null ? s : first;
                last = s;
            }
        }
        if (first == null || last.t() - first.t() < 5) {
            return null;
        }
        return (last.applied() - first.applied()) / (last.t() - first.t());
    }

    static Path file(Path store, String job, String engine) {
        return store.resolve("baseline").resolve(job + "-" + engine + ".json");
    }

    static void save(Path store, Measured m) throws IOException {
        Files.createDirectories(file(store, m.job(), m.engine()).getParent());
        JSON.writeValue(file(store, m.job(), m.engine()).toFile(), m);
    }

    /**
     * The load for {@code drill}: {@code fraction} of the job's baseline where one was measured on
     * this engine, else the drill file's own rate, said so.
     */
    static Load loadFor(Drill drill, Path store, String job, String engine, double fraction) {
        Path f = file(store, job, engine);
        if (!Files.isRegularFile(f)) {
            return new Load(
                    drill.loadRate(),
                    fraction,
                    null,
                    null,
                    "the drill file's rate: no baseline of " + job + " on " + engine
                            + " measured here ('bin/nearline drill run baseline --engine " + engine + " --job " + job
                            + "')");
        }
        try {
            JsonNode b = JSON.readTree(f.toFile());
            boolean keptUp = b.path("sustainedPerSecond").isNull();
            double sustained = keptUp
                    ? b.path("loadRate").asDouble()
                    : b.path("sustainedPerSecond").asDouble();
            int rate = (int) Math.max(1, Math.round(sustained * fraction));
            return new Load(
                    rate,
                    fraction,
                    sustained,
                    b.path("measuredAt").asText(),
                    String.format(
                            "%.0f %% of the %s%,.0f a second the job sustained in its baseline",
                            fraction * 100, keptUp ? "at least " : "", sustained));
        } catch (IOException e) {
            throw new ClusterException("cannot read the baseline " + f + ": " + e.getMessage()
                    + " (measure it again: 'bin/nearline drill run baseline')");
        }
    }

    /** Measures the baseline from a finished no-fault run and keeps it. */
    static Measured conclude(String job, String engine, DrillRun run, Path store) throws IOException {
        Double sustained = sustained(run.history(), run.steadyBacklog());
        Measured m = new Measured(
                job,
                engine,
                sustained == null ? null : (double) Math.round(sustained),
                PROBE_RATE,
                Instant.now().toString(),
                String.valueOf(run.folder()));
        save(store, m);
        return m;
    }
}
