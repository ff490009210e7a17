package io.nearline.tracking.join;

import java.util.HashMap;
import java.util.Map;

/**
 * Event time per input partition, engine-neutral. Two jobs:
 * <ul>
 *   <li>{@link #admit}: an event more than the allowed lateness older than the newest event seen on
 *       its own partition is late. Judged against its own partition only, so the verdict depends on
 *       the partition's order alone, not on how an engine interleaves partitions.</li>
 *   <li>{@link #watermark}: the smallest of the partitions' newest event times, less the allowed
 *       lateness and 1 ms (as Flink's bounded-out-of-orderness watermarks). A partition with nothing
 *       new for the idle timeout stops holding it back; an ended partition never does; when every
 *       partition is idle it stays where it is. It never goes back.</li>
 * </ul>
 * Flink uses the first (its own watermark generator does the second, per split); Samza uses both.
 * Not thread-safe: one per task.
 */
public final class InputClock {

    private static final class Input {
        long newest = Long.MIN_VALUE;
        long lastActivity;
        boolean ended;
    }

    private final long latenessMillis;
    private final long idleTimeoutMillis;
    private final Map<String, Input> inputs = new HashMap<>();
    private long watermark = Long.MIN_VALUE;

    public InputClock(long latenessMillis, long idleTimeoutMillis) {
        this.latenessMillis = latenessMillis;
        this.idleTimeoutMillis = idleTimeoutMillis;
    }

    /** An input this task will read: it holds the watermark back until it is seen, idle or ended. */
    public void expect(String input, long nowMillis) {
        inputs.computeIfAbsent(input, i -> new Input()).lastActivity = nowMillis;
    }

    /** Records an event of {@code input}; false when it is late for its own partition. */
    public boolean admit(String input, long eventTime, long nowMillis) {
        Input in = inputs.computeIfAbsent(input, i -> new Input());
        in.lastActivity = nowMillis;
        boolean inTime = in.newest == Long.MIN_VALUE || eventTime >= in.newest - latenessMillis;
        in.newest = Math.max(in.newest, eventTime);
        return inTime;
    }

    /** {@code input} has no more events (a bounded replay read it to its end). */
    public void end(String input) {
        inputs.computeIfAbsent(input, i -> new Input()).ended = true;
    }

    public boolean allEnded() {
        return !inputs.isEmpty() && inputs.values().stream().allMatch(i -> i.ended);
    }

    public long watermark(long nowMillis) {
        if (allEnded()) {
            watermark = Long.MAX_VALUE;
            return watermark;
        }
        long min = Long.MAX_VALUE;
        boolean anyActive = false;
        for (Input in : inputs.values()) {
            if (in.ended || nowMillis - in.lastActivity >= idleTimeoutMillis) {
                continue;
            }
            anyActive = true;
            min = Math.min(min, in.newest == Long.MIN_VALUE ? Long.MIN_VALUE : in.newest - latenessMillis - 1);
        }
        if (anyActive) {
            watermark = Math.max(watermark, min);
        }
        return watermark;
    }
}
