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

import io.nearline.cacheupdater.core.ChangeIntake;
import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.events.ChangeDecoder;
import io.nearline.common.events.ChangeEventValidator;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.metrics.Metrics;
import io.nearline.engines.flinkkit.FlinkMetrics;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/** Decodes and validates each CDC record, once: valid changes go on as the write needs them, the rest become dead letters. */
final class DecodeFunction extends ProcessFunction<KafkaInput, Change> {

    private final String job;
    private final int maxPayloadBytes;
    private final ChangeDecoder decoder;
    private final String schemaRegistryDir;
    private transient ChangeIntake intake;
    private transient Metrics.Counter deadLettered;

    DecodeFunction(String job, int maxPayloadBytes, ChangeDecoder decoder, String schemaRegistryDir) {
        this.job = job;
        this.maxPayloadBytes = maxPayloadBytes;
        this.decoder = decoder;
        this.schemaRegistryDir = schemaRegistryDir;
    }

    @Override
    public void open(OpenContext context) {
        Metrics metrics = new FlinkMetrics(getRuntimeContext().getMetricGroup());
        intake = new ChangeIntake(decoder, ChangeEventValidator.of(maxPayloadBytes, schemaRegistryDir), metrics);
        deadLettered = metrics.counter("events.dead-lettered");
    }

    @Override
    public void processElement(KafkaInput in, Context ctx, Collector<Change> out) {
        SourceRecord source = source(job, in);
        ChangeEvent event = intake.take(in.key, in.value, rejection -> {
            deadLettered.inc();
            ctx.output(DeadLetterOutput.TAG, DeadLetterOutput.of(source, rejection));
        });
        if (event != null) {
            out.collect(new Change(ChangeEvents.cacheKey(event), UpdateBatch.Pending.of(event, source, false)));
        }
    }

    static SourceRecord source(String job, KafkaInput in) {
        return new SourceRecord(job, in.topic, in.partition, in.offset, in.key, in.value);
    }
}
