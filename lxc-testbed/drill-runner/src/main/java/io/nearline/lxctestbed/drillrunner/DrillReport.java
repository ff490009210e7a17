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

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/** {@code report.md}: what happened in a drill run, in a few lines a person reads first. */
final class DrillReport {

    private DrillReport() {}

    static String markdown(DrillRun.Ran ran) {
        Drill drill = ran.drill();
        DrillRun.Outcome o = ran.outcome();
        StringBuilder md = new StringBuilder();
        md.append("# Drill ")
                .append(drill.name())
                .append(" on ")
                .append(o.engine())
                .append(": ");
        md.append(drill.faults().isEmpty() ? "no fault (a baseline)" : o.valid() ? "valid" : "NOT VALID")
                .append("\n\n");
        md.append(drill.description()).append("\n\n");
        md.append(ran.load()).append(" YARN application ").append(ran.appId()).append(".\n");
        ran.faults().forEach(f -> md.append(faultLine(f)));
        md.append('\n');
        md.append(figures(ran));
        md.append("After the drain: ").append(ran.checks().checked().summary()).append(".\n\n");
        if (ran.checks().checked().repeatedOutputs() != null) {
            md.append("The engines deliver output at least once: a join written again by a restarted job is an "
                    + "identical repeat, removed by request id before counting (as the joined topic's consumers "
                    + "do). Two different joins of one request would count as duplicates.\n\n");
        }
        if (o.valid()) {
            md.append("Every fault was applied, measured in place and healed, the system showed each fault it "
                    + "should notice, and every invariant held.\n");
        } else {
            md.append("Not valid:\n");
            o.reasons().forEach(r -> md.append("- ").append(r).append('\n'));
        }
        md.append("\n![timeline](timeline.png)\n\n");
        md.append("Again: `bin/nearline drill run ")
                .append(drill.name())
                .append(" --engine ")
                .append(o.engine())
                .append(" --seed ")
                .append(ran.seed())
                .append("`\n");
        return md.toString();
    }

    private static String faultLine(Verdict.FaultOutcome f) {
        StringBuilder line = new StringBuilder(String.format(
                "- **%s** at %.0f s on %s: %s%s",
                f.kind(),
                f.startSeconds(),
                f.target(),
                f.applied() ? f.detail() : "NOT APPLIED (" + f.detail() + ")",
                f.endSeconds() == null ? "" : String.format("; healed at %.0f s", f.endSeconds())));
        if (f.detection() != null) {
            line.append(
                    f.detectedBy() == null
                            ? f.detection().expected().isEmpty()
                                    ? "; no sign expected from the system, none needed"
                                    : "; the system never showed "
                                            + String.join(" or ", f.detection().expected())
                            : String.format("; noticed: %s after %.1f s", f.detectedBy(), f.detectionSeconds()));
        }
        if (f.behindSeconds() != null) {
            line.append(String.format("; the load behind after %.1f s", f.behindSeconds()));
        }
        if (f.healError() != null) {
            line.append("; heal failed: ").append(f.healError());
        }
        line.append('\n');
        Effect e = f.effect();
        if (e != null) {
            line.append(String.format(
                    "  - effect (%s, %s): %s before, %s in place%s, %s after the heal%s: %s%n",
                    e.expected().probe(),
                    e.expected().unit().isEmpty() ? "1 or 0" : e.expected().unit(),
                    e.before(),
                    e.during(),
                    e.late() == null ? "" : " and " + e.late() + " just before the heal",
                    e.after(),
                    e.restoredSeconds() == null ? "" : String.format(" (normal %.1f s after)", e.restoredSeconds()),
                    e.proven() ? "proven" : "NOT PROVEN"));
        }
        return line.toString();
    }

    /** Throughput before, during and after the faults; the worst backlog and staleness; the recovery. */
    private static String figures(DrillRun.Ran ran) {
        List<Verdict.FaultOutcome> faults = ran.faults();
        List<Timeline.Second> history = ran.history();
        return String.format(
                        "Throughput (done per second, median): %s before the first fault, %s during the faults, %s after.%n",
                        median(history, s -> s.t() < first(faults)),
                        median(history, s -> s.t() >= first(faults) && s.t() < last(faults)),
                        median(
                                history,
                                s -> s.t() >= last(faults)
                                        && s.t() < ran.drill().loadSeconds()))
                + String.format(
                        "Worst backlog: %s%s. Back to the load's pace %s after the last fault ended.%n%n",
                        history.stream()
                                .map(Timeline.Second::consumerLag)
                                .filter(Objects::nonNull)
                                .max(Long::compare)
                                .map(n -> String.format("%,d", n))
                                .orElse("unknown"),
                        history.stream()
                                .map(Timeline.Second::stalenessP99Ms)
                                .filter(Objects::nonNull)
                                .max(Long::compare)
                                .map(ms -> String.format("; worst staleness p99: %.1f s", ms / 1000.0))
                                .orElse(""),
                        ran.outcome().recoverySeconds() == null
                                ? "never"
                                : String.format("%.1f s", ran.outcome().recoverySeconds()))
                + consistentThrough(history, first(faults));
    }

    /**
     * The cache updater's own consistent-through, behind the clock: before the first fault (median), at
     * worst, and at the last reading; nothing where the job was never read.
     */
    static String consistentThrough(List<Timeline.Second> history, double firstFault) {
        List<Timeline.Second> read =
                history.stream().filter(s -> s.consistentThroughLagMs() != null).toList();
        if (read.isEmpty()) {
            return "";
        }
        long[] before = read.stream()
                .filter(s -> s.t() < firstFault)
                .mapToLong(Timeline.Second::consistentThroughLagMs)
                .sorted()
                .toArray();
        Timeline.Second worst = read.stream()
                .max(Comparator.comparing(Timeline.Second::consistentThroughLagMs))
                .orElseThrow();
        Timeline.Second lastRead = read.get(read.size() - 1);
        return String.format(
                "The job's consistent-through (its oldest partition's) was %s behind the clock before the first fault "
                        + "(median), %.1f s at worst (at t=%.0f s), and %.1f s at its last reading (t=%.0f s); "
                        + "seconds without a reading: %d of %d.%n%n",
                before.length == 0 ? "-" : String.format("%.1f s", before[before.length / 2] / 1000.0),
                worst.consistentThroughLagMs() / 1000.0,
                worst.t(),
                lastRead.consistentThroughLagMs() / 1000.0,
                lastRead.t(),
                history.size() - read.size(),
                history.size());
    }

    private static double first(List<Verdict.FaultOutcome> faults) {
        return faults.stream()
                .mapToDouble(Verdict.FaultOutcome::startSeconds)
                .min()
                .orElse(0);
    }

    private static double last(List<Verdict.FaultOutcome> faults) {
        return faults.stream()
                .mapToDouble(f -> f.endSeconds() == null ? f.startSeconds() + 1 : f.endSeconds())
                .max()
                .orElse(0);
    }

    private static String median(List<Timeline.Second> history, Predicate<Timeline.Second> when) {
        long[] v = history.stream()
                .filter(when)
                .map(Timeline.Second::throughput)
                .filter(Objects::nonNull)
                .mapToLong(Long::longValue)
                .sorted()
                .toArray();
        return v.length == 0 ? "-" : String.format("%,d", v[v.length / 2]);
    }
}
