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
package io.nearline.localcluster.kit.options;

import io.nearline.jobs.kit.console.DurationConverter;
import java.time.Duration;
import picocli.CommandLine.Option;

/** {@code --wait DURATION} (a picocli mixin): how long a command reading a live cluster may wait for it to settle. */
public final class WaitOption {

    @Option(
            names = "--wait",
            defaultValue = "0s",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "Read again until what is read settles (check: the store converges; collect: the outputs "
                    + "stop changing for 5 s) or this time is up, e.g. 120s (default: ${DEFAULT-VALUE}: read once).")
    public Duration time;

    /** The {@link System#nanoTime} by which to give up. */
    public long deadlineNanos() {
        return System.nanoTime() + time.toNanos();
    }
}
