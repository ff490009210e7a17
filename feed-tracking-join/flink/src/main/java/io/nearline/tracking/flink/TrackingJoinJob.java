package io.nearline.tracking.flink;

import io.nearline.common.config.Config;
import io.nearline.tracking.join.JoinSettings;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.nio.charset.StandardCharsets;

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

    private TrackingJoinJob() {
    }

    /** The job on {@code env}, reading from the committed offsets; {@code bounded}: up to the topics' end at start. */
    public static void define(StreamExecutionEnvironment env, JoinSettings s, boolean bounded) {
        env.setParallelism(s.parallelism());
        env.enableCheckpointing(s.checkpointInterval().toMillis());
        WatermarkStrategy<TrackingInput> watermarks = WatermarkStrategy
                .<TrackingInput>forBoundedOutOfOrderness(s.allowedLateness())
                .withTimestampAssigner((in, kafkaTimestamp) -> in.ts)
                .withIdleness(s.idleTimeout());
        DataStream<TrackingInput> index = env.fromSource(source(s, s.indexTopic(), bounded), watermarks, "index-source")
                .uid("index-source");
        DataStream<TrackingInput> broker = env.fromSource(source(s, s.brokerTopic(), bounded), watermarks, "broker-source")
                .uid("broker-source");
        SingleOutputStreamOperator<TrackingInput> valid = index.union(broker)
                .process(new RouteFunction(s.consumerGroup())).name("route").uid("route");
        SingleOutputStreamOperator<KafkaOutput> joined = valid
                .keyBy(in -> in.requestId, Types.STRING)
                .process(new JoinFunction(s.window().toMillis())).name("join").uid("join");
        joined.sinkTo(sink(s, s.joinedTopic())).name("joined").uid("joined-sink");
        joined.getSideOutput(JoinFunction.ORPHANS).sinkTo(sink(s, s.orphansTopic())).name("orphans").uid("orphans-sink");
        joined.getSideOutput(JoinFunction.LATE).sinkTo(sink(s, s.lateTopic())).name("late").uid("late-sink");
        valid.getSideOutput(RouteFunction.DEAD_LETTERS).sinkTo(sink(s, s.deadLetterTopic())).name("dead-letters")
                .uid("dead-letters-sink");
    }

    private static KafkaSource<TrackingInput> source(JoinSettings s, String topic, boolean bounded) {
        KafkaSourceBuilder<TrackingInput> builder = KafkaSource.<TrackingInput>builder()
                .setBootstrapServers(s.bootstrapServers())
                .setTopics(topic)
                .setGroupId(s.consumerGroup())
                .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
                .setProperty("commit.offsets.on.checkpoint", "true")
                .setDeserializer(new InputDeserializer(s.brokerTopic(), s.allowedLateness().toMillis()));
        if (bounded) {
            builder.setBounded(OffsetsInitializer.latest());
        }
        return builder.build();
    }

    /**
     * At least once: after a failure, records since the last checkpoint may be written again (a
     * consumer dedupes joined events by requestId).
     */
    private static Sink<KafkaOutput> sink(JoinSettings s, String topic) {
        return KafkaSink.<KafkaOutput>builder()
                .setBootstrapServers(s.bootstrapServers())
                .setRecordSerializer(new Keyed(topic))
                .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .build();
    }

    /** Key = requestId in UTF-8 (so a request keeps one partition downstream), value = the Avro bytes. */
    static final class Keyed implements KafkaRecordSerializationSchema<KafkaOutput> {
        private final String topic;

        Keyed(String topic) {
            this.topic = topic;
        }

        @Override
        public ProducerRecord<byte[], byte[]> serialize(KafkaOutput out, KafkaSinkContext context, Long timestamp) {
            return new ProducerRecord<>(topic, out.key == null ? null : out.key.getBytes(StandardCharsets.UTF_8), out.value);
        }
    }

    /** Production entry point: {@code TrackingJoinJob --config job.yaml [--set key=value ...]}. */
    public static void main(String[] args) throws Exception {
        Config config = Config.fromArgs(args);
        JoinSettings.validateJob(config);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        define(env, JoinSettings.from(config), false);
        env.execute("nearline-tracking-join");
    }
}
