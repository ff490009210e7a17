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
package io.nearline.localcluster.joinreplay;

import io.nearline.common.config.Config;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.jobs.kit.console.DurationConverter;
import io.nearline.localcluster.kit.options.LocalRunOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The options of {@code replay join}, shared by the front door and each engine's runner. */
public final class ReplayJoinOptions {

    @Mixin
    public LocalRunOptions run;

    /** The replay command these options belong to (a crash test starts it again as the job's process). */
    @Spec(Spec.Target.MIXEE)
    public CommandSpec command;

    @Option(
            names = "--index",
            required = true,
            paramLabel = "INDEX.jsonl",
            description = "Index-node fragments as JSON lines, in arrival order.")
    public Path index;

    @Option(
            names = "--broker",
            required = true,
            paramLabel = "BROKER.jsonl",
            description = "Broker events as JSON lines, in arrival order.")
    public Path broker;

    @Option(
            names = "--out-dir",
            required = true,
            paramLabel = "DIR",
            description = "Where joined.jsonl, orphans.jsonl, late.jsonl and dead-letters.jsonl go (sorted lines).")
    public Path outDir;

    @Option(
            names = "--window-ms",
            paramLabel = "N",
            description = "Event time a request may spread over (join.window; default 10000).")
    public Long windowMillis;

    @Option(
            names = "--lateness-ms",
            paramLabel = "N",
            description = "Allowed lateness per input partition (join.allowed-lateness; default 2000).")
    public Long latenessMillis;

    @Option(
            names = "--live",
            description = "Send the events in live event time while the job runs, instead of before it starts: each "
                    + "file's events in order, each when the clock reaches its event time shifted to now, re-stamped "
                    + "so. The traffic's rate is the files'. Join latency is then counted from the moment the job "
                    + "first caught up with the traffic.")
    public boolean live;

    @Option(
            names = "--warm-up",
            defaultValue = "0s",
            converter = DurationConverter.class,
            description = "With --live: join latency recorded in this first part of the traffic (JIT, the first "
                    + "checkpoints) is left out (default: ${DEFAULT-VALUE}).")
    public Duration warmUp;

    /** The job configuration this replay runs with: file, then the replay's own choices, then --set. */
    public Config jobConfig(String bootstrapServers) {
        Map<String, String> replay = new LinkedHashMap<>();
        replay.put("kafka.bootstrap-servers", bootstrapServers);
        if (windowMillis != null) {
            replay.put(JoinSettings.WINDOW.name(), windowMillis + "ms");
        }
        if (latenessMillis != null) {
            replay.put(JoinSettings.ALLOWED_LATENESS.name(), latenessMillis + "ms");
        }
        return run.jobConfig(replay);
    }
}
