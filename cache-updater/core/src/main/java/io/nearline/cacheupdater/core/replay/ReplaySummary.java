package io.nearline.cacheupdater.core.replay;

import io.nearline.common.metrics.InMemoryMetrics;

import java.io.PrintStream;

/** What a replay did, in the counters every engine reports; printed at the end of {@code replay cdc}. */
public record ReplaySummary(String engine, long eventsRead, long applied, long stale, long duplicate, long superseded,
                            long deadLettered, long keys, long elapsedMillis) {

    public static ReplaySummary of(String engine, long eventsRead, long deadLettered, long keys, InMemoryMetrics metrics,
                                   long elapsedMillis) {
        return new ReplaySummary(engine, eventsRead, metrics.count("write.applied"), metrics.count("write.stale"),
                metrics.count("write.duplicate"), metrics.count("write.superseded"), deadLettered, keys, elapsedMillis);
    }

    public void print(PrintStream out) {
        out.printf("replay cdc on %s: %,d events read in %.1f s (%,.0f events/s)%n", engine, eventsRead,
                elapsedMillis / 1000.0, elapsedMillis == 0 ? 0.0 : eventsRead * 1000.0 / elapsedMillis);
        out.printf("  applied %,d  stale %,d  duplicate %,d  superseded in batch %,d  dead-lettered %,d%n",
                applied, stale, duplicate, superseded, deadLettered);
        out.printf("  final state: %,d keys%n", keys);
    }
}
