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
package io.nearline.feedtrackingjoin.core;

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
