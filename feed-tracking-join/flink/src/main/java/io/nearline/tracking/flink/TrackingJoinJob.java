package io.nearline.tracking.flink;

import io.nearline.engine.flink.FlinkJobMain;
import io.nearline.tracking.join.JoinSettings;
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
                .process(new JoinFunction(s.window().toMillis()))
                .name("join")
                .uid("join");
        joined.sinkTo(io.joined()).name("joined").uid("joined-sink");
        joined.getSideOutput(JoinFunction.ORPHANS)
                .sinkTo(io.orphans())
                .name("orphans")
                .uid("orphans-sink");
        joined.getSideOutput(JoinFunction.LATE).sinkTo(io.late()).name("late").uid("late-sink");
        valid.getSideOutput(RouteFunction.DEAD_LETTERS)
                .sinkTo(io.deadLetters())
                .name("dead-letters")
                .uid("dead-letters-sink");
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
