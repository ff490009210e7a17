package io.nearline.localcluster.kit;

import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** Waiting in local runs: on a count the job reaches, while watching that the job still runs. */
public final class LocalRuns {

    private LocalRuns() {}

    /**
     * Returns once {@code count} reaches {@code expected}. Fails when {@code stopped} names a reason
     * (the job ended before that) or after {@code limit}, saying how far it got: a run never hangs and
     * never ends quietly short.
     */
    public static void await(String what, LongSupplier count, long expected, Duration limit, Supplier<String> stopped)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (count.getAsLong() < expected) {
            String reason = stopped.get();
            if (reason != null) {
                throw new IllegalStateException(
                        "the job stopped with " + count.getAsLong() + " of " + expected + " " + what + ": " + reason);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "timed out after " + limit + " with " + count.getAsLong() + " of " + expected + " " + what);
            }
            Thread.sleep(20);
        }
    }
}
