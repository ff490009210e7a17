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
