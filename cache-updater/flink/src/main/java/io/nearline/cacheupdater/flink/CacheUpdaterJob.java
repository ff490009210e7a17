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
package io.nearline.cacheupdater.flink;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.CacheWritePath;
import io.nearline.cdcbootstrap.core.BootstrapSettings;
import io.nearline.common.config.Config;
import io.nearline.engines.flinkkit.FlinkJobMain;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The cache-updater job on Flink, and with a bootstrap source the bootstrapper beside it.
 * {@link #define} wires the pipeline from the I/O it is given ({@link CacheUpdaterIo#kafka} in
 * production; bounded sources in replays). Parallelism, checkpointing and the restart strategy are
 * the engine's: the cluster's configuration and {@code flink run -p}, never set here.
 *
 * <pre>
 * CDC topic ─► decode + validate ─► keyBy(cache key) ─► SCN-ordered write (batched per key) ─► cache
 *                    └──────────── dead letters ◄──────────────────┘  (store refusals)
 *                                      └─► dead-letter topic
 * </pre>
 */
public final class CacheUpdaterJob {

    private CacheUpdaterJob() {}

    /**
     * The job on {@code env}. Each source of {@code io} present adds its path: change events, and
     * bootstrap rows through a write operator of their own (racing the live changes in the store as
     * separate jobs would). Every setting is checked first, typos included.
     */
    public static void define(StreamExecutionEnvironment env, CacheUpdaterIo io, Config config) {
        CacheUpdaterSettings.validateJob(config, BootstrapSettings.DEF);
        CacheUpdaterSettings settings = CacheUpdaterSettings.from(config);
        CacheWritePath.Settings writes = CacheWritePath.Settings.of(config, io.cache());
        DataStream<byte[]> deadLetters = null;
        if (io.changes() != null) {
            SingleOutputStreamOperator<Change> changes = read(env, io.changes(), "cdc-source")
                    .process(new DecodeFunction(
                            settings.readerGroup(false),
                            settings.maxPayloadBytes(),
                            settings.decoder(),
                            settings.schemaRegistryDir()))
                    .name("decode")
                    .uid("decode");
            deadLetters = write(changes, writes, "write-cache");
        }
        if (io.bootstrap() != null) {
            SingleOutputStreamOperator<Change> rows = read(env, io.bootstrap(), "bootstrap-source")
                    .process(new BootstrapDecodeFunction(
                            settings.readerGroup(true), settings.maxPayloadBytes(), settings.schemaRegistryDir()))
                    .name("bootstrap-decode")
                    .uid("bootstrap-decode");
            DataStream<byte[]> more = write(rows, writes, "bootstrap-write-cache");
            deadLetters = deadLetters == null ? more : deadLetters.union(more);
        }
        if (deadLetters == null) {
            throw new IllegalArgumentException("the job needs a change source, a bootstrap source, or both");
        }
        deadLetters.sinkTo(io.deadLetters()).name("dead-letters").uid("dead-letters");
    }

    private static DataStream<KafkaInput> read(
            StreamExecutionEnvironment env, Source<KafkaInput, ?, ?> source, String name) {
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), name).uid(name);
    }

    /** keyBy(cache key) into a write operator; returns every dead letter of the path. */
    private static DataStream<byte[]> write(
            SingleOutputStreamOperator<Change> changes, CacheWritePath.Settings writes, String name) {
        SingleOutputStreamOperator<Void> written = changes.keyBy(c -> c.key().value(), Types.STRING)
                .transform(name, TypeInformation.of(Void.class), new CacheWriteOperator(writes))
                .uid(name);
        return changes.getSideOutput(DeadLetterOutput.TAG).union(written.getSideOutput(DeadLetterOutput.TAG));
    }

    /**
     * Production entry point, the jar's main class:
     * {@code flink run nearline-cache-updater-flink.jar --config cache-updater.yaml [--set key=value ...]}.
     * With {@code bootstrap.enabled=true} the bootstrapper runs in the same job.
     */
    public static void main(String[] args) {
        FlinkJobMain.run("nearline-cache-updater", args, (env, config) -> {
            boolean withBootstrap = config.get(BootstrapSettings.ENABLED);
            define(
                    env,
                    CacheUpdaterIo.kafka(
                            config, CacheUpdaterIo.Inputs.changes(withBootstrap), CacheUpdaterIo.Reading.LIVE),
                    config);
        });
    }
}
