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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether a drill run is valid, and every reason it is not. A run proves something only if its
 * faults really happened: a fault that was never applied makes the run invalid, however clean the
 * cache looks afterwards.
 */
final class Verdict {

    /**
     * A fault as it went: applied or not (and why), when, what the system under test showed of it, its
     * measured effect (null when it was never applied), and, apart, how soon the drill's own load fell
     * behind after it began ({@code behindSeconds}: never a stand-in for detection).
     */
    record FaultOutcome(
            String kind,
            String target,
            boolean applied,
            String detail,
            double startSeconds,
            Double endSeconds,
            FaultLife.Detection detection,
            Effect effect,
            Double behindSeconds,
            String healError) {

        Double detectionSeconds() {
            return detection == null ? null : detection.seconds();
        }

        String detectedBy() {
            return detection == null ? null : detection.by();
        }

        FaultOutcome withBehind(Double behind) {
            return new FaultOutcome(
                    kind, target, applied, detail, startSeconds, endSeconds, detection, effect, behind, healError);
        }
    }

    /**
     * What a load's check found: the cache updater's keys, or the tracking join's requests (null where
     * the job has no such figure). {@code repeatedOutputs}: identical join outputs written again after
     * a restart (at-least-once delivery), removed before counting joins.
     */
    record Checked(
            Long keysChecked,
            Long divergentKeys,
            Long requests,
            Long joinedOnce,
            Long duplicateJoins,
            Long lostJoins,
            Long repeatedOutputs,
            Map<String, Long> oracle,
            String summary) {

        /** Outputs the join oracle expected and did not get, or got and did not expect; null for the cache updater. */
        Long oracleMismatches() {
            return oracle == null
                    ? null
                    : oracle.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** What the checks found once the load was over and the job drained. */
    record Checks(
            long units, long sent, long sendFailures, Checked checked, Double recoverySeconds, String jobStateAtEnd) {}

    private Verdict() {}

    /** The reasons the run is not valid; empty when it is. */
    static List<String> reasons(List<FaultOutcome> faults, Duration detectWithin, Checks checks) {
        List<String> why = new ArrayList<>();
        if (faults.isEmpty()) {
            why.add("no fault was scheduled");
        }
        for (FaultOutcome f : faults) {
            if (!f.applied()) {
                why.add(f.kind() + " was never applied: " + f.detail());
                continue;
            }
            if (f.healError() != null) {
                why.add(f.kind() + " could not be healed: " + f.healError());
            }
            if (f.detection() != null && !f.detection().expected().isEmpty() && f.detectedBy() == null) {
                why.add(f.kind() + " on " + f.target() + ": the system under test never showed "
                        + String.join(" or ", f.detection().expected()) + " (not noticed)");
            } else if (detectWithin != null
                    && f.detectionSeconds() != null
                    && f.detectionSeconds() > detectWithin.toMillis() / 1000.0) {
                why.add(f.kind() + " on " + f.target() + " not noticed within " + detectWithin.toSeconds() + " s ("
                        + f.detectedBy() + String.format(" after %.1f s)", f.detectionSeconds()));
            }
            if (f.effect() != null) {
                f.effect().reasons().forEach(r -> why.add(f.kind() + " on " + f.target() + ": " + r));
            }
        }
        if (checks.sendFailures() > 0 || checks.sent() < checks.units()) {
            why.add("the load was not all delivered: " + checks.sent() + " of " + checks.units() + " sent, "
                    + checks.sendFailures() + " failed");
        }
        Checked c = checks.checked();
        if (c.keysChecked() != null && c.keysChecked() == 0) {
            why.add("no key was checked");
        }
        if (c.divergentKeys() != null && c.divergentKeys() > 0) {
            why.add(c.divergentKeys() + " divergent keys after the drain");
        }
        if (c.requests() != null && c.requests() == 0) {
            why.add("no request was checked");
        }
        if (c.lostJoins() != null && c.lostJoins() > 0) {
            why.add(c.lostJoins() + " requests with a broker event never joined");
        }
        if (c.oracleMismatches() != null && c.oracleMismatches() > 0) {
            why.add(c.oracleMismatches() + " outputs differ from the join oracle's (joined contents, orphans, late): "
                    + c.oracle());
        }
        if (c.duplicateJoins() != null && c.duplicateJoins() > 0) {
            why.add(c.duplicateJoins() + " requests joined more than once, differently");
        }
        if (checks.recoverySeconds() == null) {
            why.add("the job did not catch up with the load after the faults within the drain time");
        }
        if (!"RUNNING".equals(checks.jobStateAtEnd())) {
            why.add("the job was not running at the end (" + checks.jobStateAtEnd() + ")");
        }
        return why;
    }

    /**
     * Seconds from {@code healedAt} until the job is back at the load's pace for good: the backlog at
     * most {@code steadyBacklog} (what keeping pace leaves open, such as a second of load) from then on. From the per-second {@code history} (seconds since the start,
     * backlog; NaN while the store did not answer); 0 when the job never fell behind, null when it had
     * not caught up by the end.
     */
    static Double recoverySeconds(List<double[]> history, double faultStart, double healedAt, long steadyBacklog) {
        Double recoveredAt = null;
        for (double[] h : history) {
            boolean behind = Double.isNaN(h[1]) || h[1] > steadyBacklog;
            if (h[0] >= faultStart && behind) {
                recoveredAt = null;
            } else if (h[0] >= faultStart && recoveredAt == null) {
                recoveredAt = h[0];
            }
        }
        return recoveredAt == null ? null : Math.max(0, recoveredAt - healedAt);
    }
}
