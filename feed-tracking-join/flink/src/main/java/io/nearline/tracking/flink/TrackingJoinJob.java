package io.nearline.tracking.flink;

import io.nearline.common.config.ConfigException;
import io.nearline.engine.flink.FlinkJobMain;
import io.nearline.tracking.join.JoinSettings;
import io.nearline.tracking.join.OutputLimit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The feed-tracking-join job on Flink.
 *
 * <pre>
 * index topic ──┐ (per-split watermarks: bounded out-of-orderness = allowed lateness, idleness)
 * broker topic ─┴─► union ─► route ─► keyBy(requestId) ─► join ─► joined topic
 *                              │                           ├─► orphans topic
 *                              └─► dead-letter topic       └─► late topic
 * </pre>
 */
public final class TrackingJoinJob {

    private TrackingJoinJob() {}

    /**
     * The job on {@code env} with the I/O it is given ({@link TrackingJoinIo#kafka} in production).
     * Parallelism, checkpointing and the restart strategy are the engine's, never set here.
     */
    public static void define(StreamExecutionEnvironment env, TrackingJoinIo io, JoinSettings s) {
        checkTransactions(s, env.getCheckpointConfig().getCheckpointInterval());
        WatermarkStrategy<TrackingInput> watermarks = WatermarkStrategy.<TrackingInput>forBoundedOutOfOrderness(
                        s.allowedLateness())
                .withTimestampAssigner((in, kafkaTimestamp) -> in.ts)
                .withIdleness(s.idleTimeout());
        DataStream<TrackingInput> index =
                env.fromSource(io.index(), watermarks, "index-source").uid("index-source");
        DataStream<TrackingInput> broker =
                env.fromSource(io.broker(), watermarks, "broker-source").uid("broker-source");
        SingleOutputStreamOperator<TrackingInput> valid = index.union(broker)
                .process(new RouteFunction(s.consumerGroup()))
                .name("route")
                .uid("route");
        SingleOutputStreamOperator<KafkaOutput> joined = valid.keyBy(in -> in.requestId, Types.STRING)
                .process(new JoinFunction(
                        s.window().toMillis(),
                        s.emitComplete(),
                        OutputLimit.of(s),
                        s.joinedTopic(),
                        s.orphansTopic(),
                        s.lateTopic()))
                .name("join")
                .uid("join");
        joined.sinkTo(io.joined()).name("joined").uid("joined-sink");
        joined.getSideOutput(JoinFunction.ORPHANS)
                .sinkTo(io.orphans())
                .name("orphans")
                .uid("orphans-sink");
        joined.getSideOutput(JoinFunction.LATE).sinkTo(io.late()).name("late").uid("late-sink");
        valid.getSideOutput(RouteFunction.DEAD_LETTERS)
                .union(joined.getSideOutput(RouteFunction.DEAD_LETTERS)) // bad input, outputs too large
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
            define(env, TrackingJoinIo.kafka(settings, false), settings);
        });
    }
}
