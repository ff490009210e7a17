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

import io.nearline.lxctestbed.drillrunner.Probe.Reading;
import io.nearline.lxctestbed.testbed.Pipe;
import java.util.ArrayList;
import java.util.List;

/**
 * A fault's effect as its probe measured it: before the fault (the baseline), while it was in place
 * (soon after it was applied, and again just before the heal), and after the heal. The effect is
 * proven when the baseline was normal, both readings in place show the fault, and the reading after
 * the heal is back to normal; every way it is not is a reason.
 *
 * @param restoredSeconds from the heal (for a kill, from the kill) to the reading back to normal
 */
record Effect(
        Expectation expected,
        Reading before,
        Reading during,
        Reading late,
        Reading after,
        Double restoredSeconds,
        List<String> reasons) {

    /** How long after a heal the probe may take to read normal again (a killed node's NodeManager starts again). */
    static final int RESTORE_SECONDS = 90;

    boolean proven() {
        return reasons.isEmpty();
    }

    /**
     * What a fault must do to its probe's figure. The link faults are applied to both ways, by the
     * amount each way, so each way must show it: a fault applied one way only is not in effect.
     */
    enum Change {
        /** the peer does not answer at all */
        UNANSWERED,
        /** each way's delay grows by at least half the amount (in ms) over its baseline */
        SLOWER,
        /** each way loses at least half the amount (in %), and passes something: a cut link is not lossy */
        LOSSIER,
        /** the rate is at most twice the amount (in kbit/s) and a quarter of the baseline */
        NARROWER,
        /** the killed process is gone (0), and a replacement runs after (1) */
        GONE
    }

    /** The probe of one fault: what it measures, in what unit, and the change the fault must make. */
    record Expectation(String probe, String unit, Change change, double amount) {

        /**
         * Whether {@code r} shows the fault, against the baseline {@code before}. A bound ({@code at most})
         * satisfies an upper limit only.
         */
        boolean inEffect(Reading before, Reading r) {
            return switch (change) {
                case UNANSWERED -> !r.answered();
                case SLOWER ->
                    bothWays(before, r) && r.up() >= before.up() + amount / 2 && r.down() >= before.down() + amount / 2;
                case LOSSIER ->
                    bothWays(before, r)
                            && r.up() >= amount / 2
                            && r.down() >= amount / 2
                            && r.up() < 100
                            && r.down() < 100;
                case NARROWER ->
                    r.answered() && before.exact() && r.value() <= Math.min(2 * amount, before.value() / 4);
                case GONE -> r.exact() && r.value() == 0;
            };
        }

        /** Whether {@code r} reads normal: as a baseline must, within what the fault would change. */
        boolean normal(Reading before, Reading r) {
            return switch (change) {
                case UNANSWERED -> r.answered();
                case SLOWER ->
                    bothWays(before, r) && r.up() < before.up() + amount / 2 && r.down() < before.down() + amount / 2;
                case LOSSIER ->
                    bothWays(before, r) && r.up() <= Math.max(2, amount / 4) && r.down() <= Math.max(2, amount / 4);
                // well above the shaped rate, measured, not bounded: the shaping is off, or never was
                case NARROWER -> r.exact() && r.value() >= 4 * amount;
                case GONE -> r.exact() && r.value() == 1;
            };
        }

        private static boolean bothWays(Reading before, Reading r) {
            return before.exact() && before.hasWays() && r.exact() && r.hasWays();
        }
    }

    /** The probe a fault of this kind is measured with; {@code store} names the cache (couchbase, redis). */
    static Expectation expectation(Drill.Fault f, String store) {
        return switch (f.kind()) {
            case KILL_NODE, PAUSE_NODE, PARTITION_NODE ->
                new Expectation("the node's NodeManager answers HTTP, from this machine", "ms", Change.UNANSWERED, 0);
            case PARTITION_STORE ->
                new Expectation(
                        "the store's port accepts a connection, from the job's node", "ms", Change.UNANSWERED, 0);
            case STORE_OUTAGE ->
                new Expectation(
                        "the store answers a request (" + store + "), from the job's node", "ms", Change.UNANSWERED, 0);
            case BROKER_RESTART ->
                new Expectation("the broker accepts a connection, from the job's node", "ms", Change.UNANSWERED, 0);
            case SLOW_LINK ->
                new Expectation(
                        "a 64 KiB upload from the job's node to this machine",
                        "kbit/s",
                        Change.NARROWER,
                        Pipe.kbitPerSecond(f.bandwidth()));
            case LOSSY_LINK ->
                new Expectation(
                        "UDP datagrams from the job's node to this machine and back, lost",
                        "%",
                        Change.LOSSIER,
                        f.lossPercent());
            case DELAYED_LINK ->
                new Expectation(
                        "UDP round trip from the job's node to this machine, median",
                        "ms",
                        Change.SLOWER,
                        f.delay().toMillis());
            case KILL_CONTAINER, KILL_AM ->
                new Expectation(
                        "the killed container's JVM running (1) or gone (0); after: a replacement running",
                        "",
                        Change.GONE,
                        0);
        };
    }

    /** The effect of readings taken around one fault, with every reason it is not proven. */
    static Effect of(
            Expectation e, Reading before, Reading during, Reading late, Reading after, Double restoredSeconds) {
        List<String> why = new ArrayList<>();
        if (!e.normal(before, before)) {
            why.add("no baseline: before the fault, " + e.probe() + " read " + before);
        } else {
            if (!e.inEffect(before, during)) {
                why.add("no measurable effect: " + e.probe() + " read " + during + " " + e.unit()
                        + " with the fault in place (before: " + before + ")");
            } else if (late != null && !e.inEffect(before, late)) {
                why.add("the effect did not last: just before the heal, " + e.probe() + " read " + late + " " + e.unit()
                        + " (before: " + before + ")");
            }
            if (!e.normal(before, after)) {
                why.add("the heal did not restore the baseline within " + RESTORE_SECONDS + " s: " + e.probe()
                        + " read " + after + " " + e.unit() + " (before: " + before + ")");
            }
        }
        return new Effect(e, before, during, late, after, restoredSeconds, List.copyOf(why));
    }
}
