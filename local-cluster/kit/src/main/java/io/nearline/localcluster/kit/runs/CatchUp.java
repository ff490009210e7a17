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
package io.nearline.localcluster.kit.runs;

import java.util.ArrayDeque;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * When a job fed live has caught up with its input, so that what it measures after is its steady
 * state and not its start: checked at most every 100 ms after the warm-up, it has caught up once it
 * has done everything that had been sent at the check before. A longer step would let the measurement
 * start while events sent during the start-up still queue in the job.
 *
 * <p>Once caught up, the checks go on to the end: the job has fallen behind at a check where it has
 * not yet done what had been sent a second before. A job that caught up once and then fell behind
 * has not kept up ({@link #keptUp}): its figures measure a backlog for part of the run.
 */
public final class CatchUp {

    private static final long CHECK_EVERY_MILLIS = 100;

    /** How long live traffic waits for its job to open before it starts anyway. */
    private static final long OPEN_WAIT_MILLIS = 120_000;

    /** Between the job opening and the traffic's first event: the sender's own set-up. */
    private static final long START_DELAY_MILLIS = 1000;

    /** How far behind the traffic a caught-up job may fall before it no longer keeps up. */
    private static final long BEHIND_MILLIS = 1000;

    private final long startsAt;
    private final long warmUpEndsAt;
    private final LongSupplier done;
    private long lastCheckAt = -1;
    private long sentAtLastCheck;
    private volatile long caughtUpAt = Long.MAX_VALUE;
    private volatile long fellBehindAt = Long.MAX_VALUE;
    /** The checks of the last second after catching up: when, and how much had been sent then. */
    private final ArrayDeque<long[]> recentChecks = new ArrayDeque<>();

    /**
     * Traffic that starts at {@code startsAt} with a warm-up of {@code warmUpMillis}; {@code done}: the
     * job's count of input events done, comparable to the count sent.
     */
    public CatchUp(long startsAt, long warmUpMillis, LongSupplier done) {
        this.startsAt = startsAt;
        this.warmUpEndsAt = startsAt + warmUpMillis;
        this.done = done;
    }

    /**
     * Holds live traffic until its job has opened (its operators or tasks asked for the counter the
     * bench reads, {@code opened}), so the warm-up is not spent on a backlog built while the engine
     * deployed the job; the traffic starts a second later ({@link #startsAt}). Waits two minutes at
     * most for the job, then says so and starts anyway.
     */
    public static CatchUp whenJobOpened(BooleanSupplier opened, long warmUpMillis, LongSupplier done)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + OPEN_WAIT_MILLIS;
        while (!opened.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                System.err.printf(
                        "the job had not opened after %d s: the live traffic starts anyway%n", OPEN_WAIT_MILLIS / 1000);
                break;
            }
            Thread.sleep(20);
        }
        return new CatchUp(System.currentTimeMillis() + START_DELAY_MILLIS, warmUpMillis, done);
    }

    /** When the traffic's first event is due. */
    public long startsAt() {
        return startsAt;
    }

    /** Whether the warm-up is over at {@code nowMillis}. */
    public boolean warmedUp(long nowMillis) {
        return nowMillis >= warmUpEndsAt;
    }

    /** The sender's count after each event (one thread); true the first time the job is found caught up. */
    public boolean sent(long sent, long nowMillis) {
        if (!warmedUp(nowMillis) || (lastCheckAt >= 0 && nowMillis - lastCheckAt < CHECK_EVERY_MILLIS)) {
            return false;
        }
        if (caughtUpAt != Long.MAX_VALUE) {
            checkStillUp(sent, nowMillis);
            return false;
        }
        boolean caughtUp = lastCheckAt >= 0 && done.getAsLong() >= sentAtLastCheck;
        lastCheckAt = nowMillis;
        sentAtLastCheck = sent;
        if (caughtUp) {
            caughtUpAt = nowMillis;
        }
        return caughtUp;
    }

    /** After the catch-up: whether the job has done what had been sent a second before. */
    private void checkStillUp(long sent, long nowMillis) {
        lastCheckAt = nowMillis;
        long[] secondAgo = null;
        while (!recentChecks.isEmpty() && recentChecks.peekFirst()[0] <= nowMillis - BEHIND_MILLIS) {
            secondAgo = recentChecks.removeFirst();
        }
        if (secondAgo != null) {
            recentChecks.addFirst(secondAgo); // still the newest a second old at the next check
            if (fellBehindAt == Long.MAX_VALUE && done.getAsLong() < secondAgo[1]) {
                fellBehindAt = nowMillis;
            }
        }
        recentChecks.addLast(new long[] {nowMillis, sent});
    }

    /** When the job, caught up before, was first found a second or more behind; {@code Long.MAX_VALUE} if never. */
    public long fellBehindAt() {
        return fellBehindAt;
    }

    /** Whether the job caught up and stayed within a second of the traffic from then to the end. */
    public boolean keptUp() {
        return caughtUp() && fellBehindAt == Long.MAX_VALUE;
    }

    /** When the job was first found caught up; {@code Long.MAX_VALUE} if it never was. */
    public long caughtUpAt() {
        return caughtUpAt;
    }

    public boolean caughtUp() {
        return caughtUpAt != Long.MAX_VALUE;
    }

    /** Where a measurement starts: once caught up, else (a job that never kept up) at the warm-up's end. */
    public long measuredFrom() {
        return caughtUp() ? caughtUpAt : warmUpEndsAt;
    }
}
