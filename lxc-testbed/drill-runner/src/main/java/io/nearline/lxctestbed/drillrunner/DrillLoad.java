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

import java.util.Map;

/**
 * A job's load in a drill: what it sends at a steady rate, how much of it the job has done (read
 * from the job's output, the same way on both engines), and the check once it is over.
 */
interface DrillLoad extends AutoCloseable {

    /** One reading: null fields where the output could not be read (the store not answering). */
    record Reading(long sent, Long applied, Long backlog, Long stalenessP99Millis) {}

    /** Sends {@code rate} units (commits, requests) a second for {@code seconds}; returns the units sent. */
    long run(int rate, int seconds, long seed);

    Reading sample();

    long sent();

    long sendFailures();

    /** The backlog under which the job keeps pace (what the job holds by design, such as open windows). */
    long steadyBacklog(int rate);

    /**
     * After the load: waits (until {@code deadlineNanos}) for the job to finish what it was sent, then
     * checks it. The figures go into results.json; {@link Verdict} judges them.
     */
    Verdict.Checked check(long deadlineNanos) throws InterruptedException;

    /** How the drill names what the load sends and what the job's output is checked against. */
    String describe(int rate, int seconds, long seed);

    @Override
    void close();

    /** The job's settings the load needs: the run's own topics. */
    static Map<String, String> topics(String job, String tag) {
        return job.equals("tracking-join")
                ? Map.of(
                        "tracking.index-topic", tag + ".index",
                        "tracking.broker-topic", tag + ".broker",
                        "tracking.joined-topic", tag + ".joined",
                        "tracking.orphans-topic", tag + ".orphans",
                        "tracking.late-topic", tag + ".late",
                        "tracking.dead-letter-topic", tag + ".dlq",
                        "tracking.consumer-group", tag)
                : Map.of(
                        "cdc.topic",
                        tag + ".cdc",
                        "cdc.dead-letter-topic",
                        tag + ".cdc.dlq",
                        "cdc.consumer-group",
                        tag);
    }
}
