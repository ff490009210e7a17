package io.nearline.cacheupdater.core;

import java.time.Duration;

/** Waits between retries; tests pass one that does not really sleep. */
@FunctionalInterface
public interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;

    Sleeper REAL = d -> Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000);
}
