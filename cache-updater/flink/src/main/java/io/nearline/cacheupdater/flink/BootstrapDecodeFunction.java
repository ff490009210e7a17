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

import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.cdcbootstrap.core.BootstrapIntake;
import io.nearline.common.events.ChangeEventValidator;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.metrics.Metrics;
import io.nearline.engines.flinkkit.FlinkMetrics;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The bootstrapper's first step, chained to its source (so it sees each bootstrap-topic partition
 * whole and in order): the engine-neutral {@link BootstrapIntake} sorts rows (on to the SCN-ordered
 * write), markers (completeness, progress log) and rejections (dead letters). What the intake has
 * counted of each snapshot is checkpointed with the source's offsets, as union state: after a restore
 * (even at another parallelism) every subtask gets every share and goes on counting the ones its
 * partitions carry, so a snapshot read across a crash still verifies complete.
 */
final class BootstrapDecodeFunction extends ProcessFunction<KafkaInput, Change> implements CheckpointedFunction {

    private static final ListStateDescriptor<Tuple2<String, byte[]>> PROGRESS = new ListStateDescriptor<>(
            "bootstrap-progress", TypeInformation.of(new TypeHint<Tuple2<String, byte[]>>() {}));

    private final String job;
    private final int maxPayloadBytes;
    private final String schemaRegistryDir;
    private transient BootstrapIntake intake;
    private transient Metrics.Counter deadLettered;
    private transient ListState<Tuple2<String, byte[]>> progress;

    BootstrapDecodeFunction(String job, int maxPayloadBytes, String schemaRegistryDir) {
        this.schemaRegistryDir = schemaRegistryDir;
        this.job = job;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    @Override
    public void open(OpenContext context) throws Exception {
        Metrics metrics = new FlinkMetrics(getRuntimeContext().getMetricGroup());
        intake = new BootstrapIntake(ChangeEventValidator.of(maxPayloadBytes, schemaRegistryDir), metrics);
        deadLettered = metrics.counter("events.dead-lettered");
        // union state: every subtask restores every share, so the shares complete already count in one
        boolean countsComplete = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0;
        for (Tuple2<String, byte[]> share : progress.get()) {
            intake.restore(share.f0, share.f1, countsComplete);
        }
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        progress = context.getOperatorStateStore().getUnionListState(PROGRESS); // restored in open()
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        List<Tuple2<String, byte[]>> shares = new ArrayList<>();
        for (String share : intake.shares()) {
            shares.add(Tuple2.of(share, intake.progress(share)));
        }
        progress.update(shares);
    }

    @Override
    public void processElement(KafkaInput in, Context ctx, Collector<Change> out) {
        BootstrapIntake.Taken taken = intake.take(in.value);
        if (taken instanceof BootstrapIntake.Row row) {
            // a row refreshes the TTL of an equal version in the store
            out.collect(new Change(
                    ChangeEvents.cacheKey(row.event()),
                    UpdateBatch.Pending.of(row.event(), DecodeFunction.source(job, in), true)));
        } else if (taken instanceof BootstrapIntake.Rejected rejected) {
            deadLettered.inc();
            ctx.output(DeadLetterOutput.TAG, DeadLetterOutput.of(DecodeFunction.source(job, in), rejected.rejection()));
        }
    }
}
