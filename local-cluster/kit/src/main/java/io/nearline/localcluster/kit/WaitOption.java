package io.nearline.localcluster.kit;

import java.time.Duration;
import picocli.CommandLine.Option;

/** {@code --wait DURATION} (a picocli mixin): how long a command reading a live cluster may wait for it to settle. */
public final class WaitOption {

    @Option(
            names = "--wait",
            defaultValue = "0s",
            paramLabel = "DURATION",
            converter = LocalRunOptions.DurationConverter.class,
            description = "Read again until what is read settles (check: the store converges; collect: the outputs "
                    + "stop changing for 5 s) or this time is up, e.g. 120s (default: ${DEFAULT-VALUE}: read once).")
    public Duration time;

    /** The {@link System#nanoTime} by which to give up. */
    public long deadlineNanos() {
        return System.nanoTime() + time.toNanos();
    }
}
