package io.nearline.localcluster.kit;

import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * When a job fed live has caught up with its input, so that what it measures after is its steady
 * state and not its start: checked at most every 100 ms after the warm-up, it has caught up once it
 * has done everything that had been sent at the check before. A longer step would let the measurement
 * start while events sent during the start-up still queue in the job.
 */
public final class CatchUp {

    private static final long CHECK_EVERY_MILLIS = 100;

    /** How long live traffic waits for its job to open before it starts anyway. */
    private static final long OPEN_WAIT_MILLIS = 120_000;

    private final long warmUpEndsAt;
    private final LongSupplier done;
    private long lastCheckAt = -1;
    private long sentAtLastCheck;
    private volatile long caughtUpAt = Long.MAX_VALUE;

    /** {@code done}: the job's count of input events done, comparable to the count sent. */
    public CatchUp(long warmUpEndsAt, LongSupplier done) {
        this.warmUpEndsAt = warmUpEndsAt;
        this.done = done;
    }

    /**
     * Holds live traffic until its job has opened (its operators or tasks asked for the counter the
     * bench reads, {@code opened}), so a warm-up is not spent on a backlog built while the engine
     * deployed the job. Waits two minutes at most, then says so and returns.
     */
    public static void awaitJobOpened(BooleanSupplier opened) throws InterruptedException {
        long deadline = System.currentTimeMillis() + OPEN_WAIT_MILLIS;
        while (!opened.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                System.err.printf(
                        "the job had not opened after %d s: the live traffic starts anyway%n", OPEN_WAIT_MILLIS / 1000);
                return;
            }
            Thread.sleep(20);
        }
    }

    /** The sender's count after each event (one thread); true the first time the job is found caught up. */
    public boolean sent(long sent, long nowMillis) {
        if (caughtUpAt != Long.MAX_VALUE
                || nowMillis < warmUpEndsAt
                || (lastCheckAt >= 0 && nowMillis - lastCheckAt < CHECK_EVERY_MILLIS)) {
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
