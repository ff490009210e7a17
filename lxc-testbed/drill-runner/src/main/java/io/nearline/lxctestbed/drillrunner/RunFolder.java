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
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's folder in the drills' store: {@code results.json} (the verdict and the figures it rests on),
 * {@code history.jsonl} (a line a second), {@code faults.jsonl}, {@code timeline.png} and
 * {@code report.md}; {@code STORE/latest} points at the newest.
 */
record RunFolder(
        Path folder, Drill drill, String engine, String job, Instant started, String appId, Baseline.Load load) {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper LINE = new ObjectMapper();

    void write(DrillRun.Ran ran) throws IOException {
        JSON.writeValue(folder.resolve("results.json").toFile(), results(ran));
        List<String> lines = new ArrayList<>();
        for (Timeline.Second s : ran.history()) {
            Map<String, Object> h = new LinkedHashMap<>();
            h.put("t", Math.round(s.t() * 10) / 10.0);
            h.put("sent", s.sent());
            h.put("applied", s.applied());
            h.put("throughput", s.throughput());
            h.put("consumerLag", s.consumerLag());
            h.put("stalenessP99Ms", s.stalenessP99Ms());
            h.put("consistentThroughLagMs", s.consistentThroughLagMs());
            h.put("containers", s.containers());
            lines.add(LINE.writeValueAsString(h));
        }
        Files.write(folder.resolve("history.jsonl"), lines);
        List<String> faultLines = new ArrayList<>();
        for (Verdict.FaultOutcome f : ran.faults()) {
            faultLines.add(LINE.writeValueAsString(faultEntry(f)));
        }
        Files.write(folder.resolve("faults.jsonl"), faultLines);
        Timeline.write(
                folder.resolve("timeline.png"),
                drill.name() + " on " + engine + " (" + job + "): "
                        + (ran.outcome().valid() ? "valid" : "NOT VALID"),
                ran.history(),
                ran.faults());
        Files.writeString(folder.resolve("report.md"), DrillReport.markdown(ran));
    }

    /** {@code results.json}: the verdict and the figures it rests on. */
    private Map<String, Object> results(DrillRun.Ran ran) {
        DrillRun.Outcome o = ran.outcome();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("valid", o.valid());
        r.put("drill", drill.name());
        r.put("engine", engine);
        r.put("job", job);
        r.put("seed", ran.seed());
        Verdict.Checked checked = ran.checks().checked(); // null where the job has no such figure
        r.put("keysChecked", checked.keysChecked());
        r.put("divergentKeys", checked.divergentKeys());
        r.put("requests", checked.requests());
        r.put("joinedOnce", checked.joinedOnce());
        r.put("duplicateJoins", checked.duplicateJoins());
        r.put("lostJoins", checked.lostJoins());
        r.put("repeatedOutputs", checked.repeatedOutputs());
        r.put("oracleMismatches", checked.oracleMismatches());
        r.put("oracle", checked.oracle());
        r.put("faults", ran.faults().size());
        r.put("detectionSeconds", round(o.detectionSeconds()));
        r.put(
                "behindSeconds",
                round(ran.faults().stream()
                        .map(Verdict.FaultOutcome::behindSeconds)
                        .filter(x -> x != null)
                        .min(Double::compare)
                        .orElse(null)));
        r.put("recoverySeconds", round(o.recoverySeconds()));
        r.put("faultLog", ran.faults().stream().map(RunFolder::faultEntry).toList());
        r.put("reasons", o.reasons());
        r.put("startedAt", started.toString());
        r.put("application", appId);
        r.put(
                job.equals("tracking-join") ? "requestsSent" : "commits",
                ran.checks().units());
        r.put("loadRate", drill.loadRate());
        r.put("load", load.json());
        r.put("jobStateAtEnd", ran.checks().jobStateAtEnd());
        return r;
    }

    /**
     * One fault as {@code results.json}'s {@code faultLog} and {@code faults.jsonl} give it: what was
     * done where, what the system under test showed and when, the probe's figures and verdict, and
     * apart from those, when the drill's own load fell behind.
     */
    static Map<String, Object> faultEntry(Verdict.FaultOutcome f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", f.kind());
        m.put("node", f.target());
        m.put("applied", f.applied());
        m.put("detail", f.detail());
        m.put("start", round(f.startSeconds()));
        m.put("end", round(f.endSeconds()));
        FaultLife.Detection d = f.detection();
        m.put("expectedSigns", d == null ? List.of() : d.expected());
        m.put("detectedBy", f.detectedBy());
        m.put("detectionSeconds", round(f.detectionSeconds()));
        m.put("signs", d == null ? Map.of() : d.seen());
        Effect e = f.effect();
        if (e == null) {
            m.put("effect", null);
        } else {
            Map<String, Object> effect = new LinkedHashMap<>();
            effect.put("probe", e.expected().probe());
            effect.put("unit", e.expected().unit());
            Map<String, String> none = new LinkedHashMap<>();
            Map<String, String> atMost = new LinkedHashMap<>();
            Map<String, Map<String, Double>> eachWay = new LinkedHashMap<>();
            for (Map.Entry<String, Probe.Reading> r : readings(e).entrySet()) {
                effect.put(
                        r.getKey(),
                        r.getValue() == null ? null : round(r.getValue().value()));
                if (r.getValue() != null
                        && (r.getValue().up() != null || r.getValue().down() != null)) {
                    Map<String, Double> ways = new LinkedHashMap<>();
                    ways.put("up", round(r.getValue().up()));
                    ways.put("down", round(r.getValue().down()));
                    eachWay.put(r.getKey(), ways);
                }
                if (r.getValue() != null && !r.getValue().answered()) {
                    none.put(r.getKey(), r.getValue().error());
                } else if (r.getValue() != null && r.getValue().bound()) {
                    atMost.put(r.getKey(), r.getValue().error());
                }
            }
            effect.put("restoredSeconds", round(e.restoredSeconds()));
            effect.put("noFigure", none);
            effect.put("atMost", atMost);
            effect.put("eachWay", eachWay);
            effect.put("reasons", e.reasons());
            m.put("effect", effect);
        }
        m.put("effectProven", e != null && e.proven());
        m.put("behindSeconds", round(f.behindSeconds()));
        m.put("healError", f.healError());
        return m;
    }

    private static Map<String, Probe.Reading> readings(Effect e) {
        Map<String, Probe.Reading> r = new LinkedHashMap<>();
        r.put("before", e.before());
        r.put("during", e.during());
        r.put("late", e.late());
        r.put("after", e.after());
        return r;
    }

    /** {@code STORE/latest} points to the newest run. */
    static void link(Path store, Path folder) throws IOException {
        Path latest = store.resolve("latest");
        Files.deleteIfExists(latest);
        Files.createSymbolicLink(latest, store.relativize(folder));
    }

    static Double round(Double v) {
        return v == null ? null : Math.round(v * 10) / 10.0;
    }
}
