package io.nearline.tracking.join;

/** The join's metric names, the same on every engine and counted at the same stage. */
public final class JoinMetrics {

    private JoinMetrics() {}

    /**
     * Input records done (fragments, broker events and invalid records): counted once the join has
     * applied an event, or the record is dead-lettered, so a local run or a bench waiting on it waits
     * for the join itself.
     */
    public static final String RECEIVED = "events.received";
    /** Input records rejected as invalid, each sent to the dead-letter topic. */
    public static final String DEAD_LETTERED = "events.dead-lettered";

    public static final String COMPLETE = "join.complete";
    public static final String PARTIAL = "join.partial";
    public static final String ORPHANS = "join.orphans";
    public static final String LATE = "join.late";
    public static final String DUPLICATES = "join.duplicates";
    /** Processing time from the arrival of the last event a join needed to its emission. */
    public static final String LATENCY = "join.latency-ms";
    /** Samza bounded runs: tasks that reached the end offsets they were given and flushed. */
    public static final String TASKS_DRAINED = "tasks.drained";
}
