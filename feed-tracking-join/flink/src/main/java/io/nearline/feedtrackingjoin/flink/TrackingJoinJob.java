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
package io.nearline.feedtrackingjoin.flink;

import io.nearline.common.config.ConfigException;
import io.nearline.engines.flinkkit.FlinkJobMain;
import io.nearline.feedtrackingjoin.core.JoinOutput;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.feedtrackingjoin.core.OutputLimit;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The feed-tracking-join job on Flink.
 *
 * <pre>
 * index topic ──► route ─┐ (per-split watermarks: allowed lateness; idle, not stalled: PartitionWatermarks)
 * broker topic ─► route ─┴─► union ─► keyBy(requestId) ─► join ─► joined topic
 *                   │                                      ├─► orphans topic
 *                   └─► dead-letter topic                  └─► late topic
 * </pre>
 *
 * Each source routes its own records (chained to it), so a record crosses the network once, to its
 * request's join.
 */
public final class TrackingJoinJob {

    /**
     * How long a record may wait in a network buffer with {@code join.emit-complete=eager}, unless
     * {@code execution.buffer-timeout.interval} is set: short, so a complete request is not held back.
     */
    static final Duration EAGER_BUFFER_TIMEOUT = Duration.ofMillis(5);

    private TrackingJoinJob() {}

    /**
     * The job on {@code env} with the I/O it is given ({@link TrackingJoinIo#kafka} in production).
     * Parallelism, checkpointing and the restart strategy are the engine's, never set here.
     */
    public static void define(StreamExecutionEnvironment env, TrackingJoinIo io, JoinSettings s) {
        checkTransactions(s, env.getCheckpointConfig().getCheckpointInterval());
        if (s.emitComplete() == JoinSettings.EmitComplete.EAGER
                && env.getConfiguration()
                        .getOptional(ExecutionOptions.BUFFER_TIMEOUT)
                        .isEmpty()) {
            // eager emission is for latency: Flink's default would hold each record up to 100 ms in a buffer
            env.setBufferTimeout(EAGER_BUFFER_TIMEOUT.toMillis());
        }
        WatermarkStrategy<TrackingInput> watermarks =
                PartitionWatermarks.of(s.allowedLateness(), s.idleTimeout(), s.stallTimeout());
        SingleOutputStreamOperator<TrackingInput> index = env.fromSource(io.index(), watermarks, "index-source")
                .uid("index-source")
                .process(new RouteFunction(s.consumerGroup()))
                .name("index-route")
                .uid("index-route");
        SingleOutputStreamOperator<TrackingInput> broker = env.fromSource(io.broker(), watermarks, "broker-source")
                .uid("broker-source")
                .process(new RouteFunction(s.consumerGroup()))
                .name("broker-route")
                .uid("broker-route");
        SingleOutputStreamOperator<KafkaOutput> joined = index.union(broker)
                .keyBy(in -> in.requestId, Types.STRING)
                .process(new JoinFunction(
                        s.window().toMillis(), s.emitComplete(), OutputLimit.of(s), JoinOutput.Topics.of(s)))
                .name("join")
                .uid("join");
        joined.sinkTo(io.joined()).name("joined").uid("joined-sink");
        joined.getSideOutput(JoinFunction.ORPHANS)
                .sinkTo(io.orphans())
                .name("orphans")
                .uid("orphans-sink");
        joined.getSideOutput(JoinFunction.LATE).sinkTo(io.late()).name("late").uid("late-sink");
        index.getSideOutput(RouteFunction.DEAD_LETTERS)
                .union(broker.getSideOutput(RouteFunction.DEAD_LETTERS)) // bad input
                .union(joined.getSideOutput(RouteFunction.DEAD_LETTERS)) // outputs too large
                .sinkTo(io.deadLetters())
                .name("dead-letters")
                .uid("dead-letters-sink");
    }

    /**
     * Exactly-once outputs are committed by checkpoints: without them nothing would ever be visible, and
     * a transaction the broker times out before its checkpoint commits it is lost.
     */
    static void checkTransactions(JoinSettings s, long checkpointIntervalMillis) {
        if (s.outputDelivery() != JoinSettings.OutputDelivery.EXACTLY_ONCE) {
            return;
        }
        if (checkpointIntervalMillis <= 0) {
            throw new ConfigException(
                    "join.output.delivery is exactly-once but checkpointing is off: outputs would "
                            + "never be committed; set execution.checkpointing.interval, or join.output.delivery=at-least-once");
        }
        if (s.transactionTimeout().toMillis() <= 2 * checkpointIntervalMillis) {
            throw new ConfigException(
                    "join.output.transaction-timeout (" + s.transactionTimeout().toMillis()
                            + " ms) must exceed twice the checkpoint interval (" + checkpointIntervalMillis
                            + " ms): raise it (the broker allows up to transaction.max.timeout.ms, 15m by default)");
        }
    }

    /**
     * Production entry point, the jar's main class:
     * {@code flink run nearline-tracking-join-flink.jar --config tracking-join.yaml [--set key=value ...]}.
     */
    public static void main(String[] args) {
        FlinkJobMain.run("nearline-tracking-join", args, (env, config) -> {
            JoinSettings.validateJob(config);
            JoinSettings settings = JoinSettings.from(config);
            define(env, TrackingJoinIo.kafka(config, false), settings);
        });
    }
}
