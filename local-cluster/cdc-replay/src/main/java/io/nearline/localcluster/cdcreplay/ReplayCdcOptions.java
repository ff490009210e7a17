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
package io.nearline.localcluster.cdcreplay;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.CacheUpdaterSettings.CdcFormat;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import io.nearline.common.events.ChangeDecoder;
import io.nearline.jobs.kit.console.DurationConverter;
import io.nearline.localcluster.kit.options.LocalRunOptions;
import io.nearline.localcluster.kit.options.StoreOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The options of {@code replay cdc}, shared by the front door and each engine's runner. */
public final class ReplayCdcOptions {

    @Mixin
    public LocalRunOptions run;

    /** The replay command these options belong to (a crash test starts it again as the job's process). */
    @Spec(Spec.Target.MIXEE)
    public CommandSpec command;

    @Option(
            names = "--events",
            required = true,
            paramLabel = "FILE",
            description = "Change events as JSON lines; repeat for several files (read in order).")
    public List<Path> events;

    /** The forms an events file can be in. */
    public enum Format {
        /** This project's change events as JSON lines, sent to the job as Avro. */
        nearline,
        /** Debezium records as JSON lines, sent as they are; the job runs with cdc.format=debezium-json. */
        debezium;

        /** The job's {@code cdc.format} for events files of this form. */
        public CdcFormat cdcFormat() {
            return this == debezium ? CdcFormat.DEBEZIUM_JSON : CdcFormat.AVRO;
        }

        /** How a tool reads this form's lines with the job's defaults ({@code check}, without a job config). */
        public ChangeDecoder decoder() {
            return CacheUpdaterSettings.decoder(
                    Config.of(Map.of(CacheUpdaterSettings.CDC_FORMAT.name(), configValue())));
        }

        /** The job's {@code cdc.format} value for this form. */
        public String configValue() {
            return this == debezium ? "debezium-json" : "avro";
        }
    }

    @Option(
            names = "--format",
            defaultValue = "nearline",
            description =
                    "Form of the events files: nearline (this project's text form) or debezium (Debezium's JSON "
                            + "envelope per line, or {\"key\":K,\"value\":V}; see docs/debezium.md). Default: ${DEFAULT-VALUE}.")
    public Format format;

    @Option(
            names = "--snapshot",
            paramLabel = "SNAPSHOT.jsonl",
            description = "Also bootstrap from this snapshot (change events with op UPSERT, optionally headed by "
                    + "{\"snapshot\":ID,\"highWatermarks\":{...}}): the bootstrapper applies its rows while the cache "
                    + "updater applies the events, against the same store.")
    public Path snapshot;

    @Option(
            names = "--snapshot-crash-after-rows",
            hidden = true,
            defaultValue = "-1",
            description =
                    "Tests and drills: the snapshot producer dies after this many rows (before saving that chunk) and a new one resumes.")
    public long snapshotCrashAfterRows;

    @Option(
            names = "--out",
            required = true,
            paramLabel = "STATE.jsonl",
            description = "Where the final cache state goes, as JSON lines sorted by key.")
    public Path out;

    @Option(names = "--dlq-out", paramLabel = "DLQ.jsonl", description = "Where the dead letters go, as JSON lines.")
    public Path dlqOut;

    @Mixin
    public StoreOptions store;

    @Option(
            names = "--raw-consume-baseline",
            description = "Before the job runs, time one plain consumer reading the whole CDC topic (for benchmarks).")
    public boolean rawConsumeBaseline;

    @Option(
            names = "--live-rate",
            paramLabel = "EVENTS_PER_SEC",
            description = "Send the events at this steady rate while the job runs, instead of before it starts, and "
                    + "report the cache's staleness: from the send of each key's last event to its write into the "
                    + "store (the record's write time), p50/p99/p99.9.")
    public Integer liveRate;

    @Option(
            names = "--warm-up",
            defaultValue = "0s",
            converter = DurationConverter.class,
            description = "With --live-rate: keys whose last event was sent in this first part are left out of the "
                    + "staleness (default: ${DEFAULT-VALUE}).")
    public Duration warmUp;

    /** The job configuration this replay runs with: file, then the replay's own choices, then --set. */
    public Config jobConfig(String bootstrapServers, Path work) {
        Map<String, String> replay = new LinkedHashMap<>();
        replay.put("kafka.bootstrap-servers", bootstrapServers);
        store.putSettings(replay, work, run);
        replay.put(CacheUpdaterSettings.CDC_FORMAT.name(), format.configValue());
        Config config = run.jobConfig(replay);
        if (config.get(CacheUpdaterSettings.CDC_FORMAT) != format.cdcFormat()) {
            throw new ConfigException("cdc.format does not match --format " + format
                    + ": leave cdc.format out, the replay sets it from --format");
        }
        return config;
    }
}
