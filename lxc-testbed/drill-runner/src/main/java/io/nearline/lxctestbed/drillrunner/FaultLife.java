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

import io.nearline.jobs.cluster.Daemons;
import io.nearline.lxctestbed.drillrunner.Probe.Reading;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * One fault's life in a drill: its probe read before, the fault applied, the system under test's
 * signs watched for, the probe read again soon after and just before the heal, the heal, and the
 * probe read until it is back to normal. It works against {@link Testbed}, which {@link Injector}
 * implements on the LXC testbed and the tests fake.
 */
final class FaultLife {

    /** What a fault's life needs from the testbed. */
    interface Testbed {
        Injector.Applied apply(Drill.Fault f);

        /** Takes the fault off wherever it reached; throws when it cannot. */
        void heal(Drill.Fault f, Injector.Applied applied);

        /** The fault's probe now: before it ({@code applied} null), while it is in place, after the heal. */
        Reading probe(Drill.Fault f, Injector.Applied applied);

        /** Where the system's signs of this fault are read; made just before it is applied. */
        Signs.Source signs(Drill.Fault f, long startMillis);

        /** The cache the testbed runs (couchbase, redis): what the store probes speak. */
        String store();
    }

    /** What the system showed: the signs expected, the first of them and when, and every sign seen. */
    record Detection(List<String> expected, String by, Double seconds, Map<String, Double> seen) {}

    /**
     * How the life is paced: the probe taken {@code settle} after the apply, again {@code lateLead}
     * before the heal; the signs watched until {@code watchAfterEnd} past the heal (for a kill,
     * {@code watchAfterKill} past it), every {@code poll}; the probe given {@code restoreWithin} to
     * read normal after the heal.
     */
    record Timing(
            Duration settle,
            Duration lateLead,
            Duration watchAfterEnd,
            Duration watchAfterKill,
            Duration restoreWithin,
            Duration poll) {

        static final Timing DRILL = new Timing(
                Duration.ofSeconds(2),
                Duration.ofSeconds(6),
                Duration.ofSeconds(10),
                Duration.ofSeconds(60),
                Duration.ofSeconds(Effect.RESTORE_SECONDS),
                Duration.ofMillis(250));
    }

    private final Testbed testbed;
    private final Timing timing;
    private final Map<Drill.Fault, Injector.Applied> unhealed;

    /** {@code unhealed} holds each fault while it may be in place: what an interrupted run heals. */
    FaultLife(Testbed testbed, Timing timing, Map<Drill.Fault, Injector.Applied> unhealed) {
        this.testbed = testbed;
        this.timing = timing;
        this.unhealed = unhealed;
    }

    /** Lives {@code f} out, {@code t0} being the load's start ({@link System#nanoTime}). */
    Verdict.FaultOutcome live(Drill.Fault f, long t0) {
        sleepUntil(t0, f.at());
        Effect.Expectation expected = Effect.expectation(f, testbed.store());
        Reading before = testbed.probe(f, null);
        long startMillis = System.currentTimeMillis();
        Signs.Source signs = testbed.signs(f, startMillis);
        double start = seconds(t0);
        Injector.Applied a = testbed.apply(f);
        if (a.touched()) {
            unhealed.put(f, a); // healed where it reached, in place or not
        }
        System.out.printf(
                "  >> t=%.0fs %s on %s: %s%n",
                start, f.kind().label(), a.target(), a.applied() ? a.detail() : "NOT APPLIED: " + a.detail());
        if (!a.applied()) {
            String healError = heal(f, a);
            return new Verdict.FaultOutcome(
                    f.kind().label(), a.target(), false, a.detail(), start, null, null, null, null, healError);
        }
        boolean kill = f.lasting().isZero();
        Duration watch = f.at().plus(f.lasting()).plus(kill ? timing.watchAfterKill() : timing.watchAfterEnd());
        CompletableFuture<Detection> detection = CompletableFuture.supplyAsync(
                () -> watch(f, a, signs, startMillis, t0 + watch.toNanos()),
                daemon("signs-" + f.kind().label()));

        Daemons.sleep(kill ? 0 : timing.settle().toMillis());
        Reading during = testbed.probe(f, a);
        Reading late = null;
        if (!kill) {
            sleepUntil(t0, f.at().plus(f.lasting()).minus(timing.lateLead()));
            late = testbed.probe(f, a);
        }
        sleepUntil(t0, f.at().plus(f.lasting()));
        String healError = heal(f, a);
        Double end = kill ? null : seconds(t0);
        if (end != null) {
            System.out.printf(
                    "  >> t=%.0fs %s healed%s%n", end, f.kind().label(), healError == null ? "" : ": " + healError);
        }
        Restored back = afterHeal(f, a, expected, before);
        Reading after = back.reading();
        Double restored = back.seconds();
        Effect effect = Effect.of(expected, before, during, late, after, restored);
        System.out.printf(
                "  >> %s: %s %s before, %s in place%s, %s after the heal%s%n",
                f.kind().label(),
                expected.probe(),
                before,
                during,
                late == null ? "" : " (" + late + " just before the heal)",
                after,
                effect.proven() ? "" : ": NOT PROVEN");
        return new Verdict.FaultOutcome(
                f.kind().label(), a.target(), true, a.detail(), start, end, detection.join(), effect, null, healError);
    }

    /** The probe's last reading after the heal, and the seconds until it read normal (null: not within the limit). */
    private record Restored(Reading reading, Double seconds) {}

    /** Reads the probe after the heal until it is normal again, or the limit has passed. */
    private Restored afterHeal(Drill.Fault f, Injector.Applied a, Effect.Expectation expected, Reading before) {
        long healed = System.nanoTime();
        while (true) {
            Reading after = testbed.probe(f, a);
            if (expected.normal(before, after)) {
                return new Restored(after, (System.nanoTime() - healed) / 1e9);
            }
            if (System.nanoTime() - healed > timing.restoreWithin().toNanos()) {
                return new Restored(after, null);
            }
            Daemons.sleep(timing.poll().toMillis() * 4);
        }
    }

    /**
     * Takes the fault off; the reason it could not be, or null. A fault not healed stays in
     * {@code unhealed}, for the run's retry at its end and on interrupt.
     */
    private String heal(Drill.Fault f, Injector.Applied a) {
        try {
            testbed.heal(f, a);
            unhealed.remove(f);
            return null;
        } catch (RuntimeException e) {
            return e.getMessage();
        }
    }

    /** Polls every sign that may show until the deadline, or until each has shown. */
    private Detection watch(
            Drill.Fault f, Injector.Applied applied, Signs.Source source, long startMillis, long deadline) {
        List<Signs.Sign> expected = Signs.expected(f.kind());
        List<Signs.Sign> polled = new ArrayList<>(expected);
        for (Signs.Sign s : List.of(Signs.Sign.AM_RESTART, Signs.Sign.FLINK_RESTART)) {
            if (!polled.contains(s)) {
                polled.add(s); // not needed, but worth knowing when it happens
            }
        }
        // each sign on a thread of its own: a slow source (Flink's REST through YARN's proxy while its
        // application master restarts) must not hold up the others
        Map<Signs.Sign, CompletableFuture<Optional<Double>>> watches = new LinkedHashMap<>();
        for (Signs.Sign s : polled) {
            watches.put(
                    s,
                    CompletableFuture.supplyAsync(
                            () -> watchOne(f, s, applied, source, startMillis, deadline), daemon("sign-" + s.label)));
        }
        Map<String, Double> seen = new LinkedHashMap<>();
        watches.forEach((s, w) -> w.join().ifPresent(at -> seen.put(s.label, at)));
        String by = null;
        Double first = null;
        // the first expected sign; where none is expected, the first that showed
        for (Signs.Sign s : expected.isEmpty() ? polled : expected) {
            Double at = seen.get(s.label);
            if (at != null && (first == null || at < first)) {
                by = s.label;
                first = at;
            }
        }
        return new Detection(expected.stream().map(s -> s.label).toList(), by, first, seen);
    }

    /** Seconds from the fault to {@code sign}, polled until the deadline; empty if it never showed. */
    private Optional<Double> watchOne(
            Drill.Fault f,
            Signs.Sign sign,
            Injector.Applied applied,
            Signs.Source source,
            long startMillis,
            long deadline) {
        while (System.nanoTime() < deadline) {
            Optional<Long> at = source.seen(sign, applied);
            if (at.isPresent()) {
                double seconds = Math.max(0, at.get() - startMillis) / 1000.0;
                System.out.printf("  >> %s: %s after %.1f s%n", f.kind().label(), sign.label, seconds);
                return Optional.of(seconds);
            }
            Daemons.sleep(timing.poll().toMillis());
        }
        return Optional.empty();
    }

    /** Runs each task on a daemon thread of its own, named {@code name}. */
    private static Executor daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            t.start();
        };
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    private static void sleepUntil(long t0, Duration at) {
        long wait = t0 + at.toNanos() - System.nanoTime();
        if (wait > 0) {
            Daemons.sleep(wait / 1_000_000);
        }
    }
}
