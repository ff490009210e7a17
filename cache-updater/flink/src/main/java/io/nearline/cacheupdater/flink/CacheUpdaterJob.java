package io.nearline.cacheupdater.flink;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.common.config.Config;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

import java.io.IOException;

/**
 * The cache-updater job on Flink. {@link #define} wires the pipeline from a source and a dead-letter
 * sink it is given (tests and replays give bounded ones); {@link #kafkaSource} and
 * {@link #deadLetterSink} are the production I/O.
 *
 * <pre>
 * CDC topic ─► decode + validate ─► keyBy(cache key) ─► SCN-ordered write (batched per key) ─► cache
 *                    └──────────── dead letters ◄──────────────────┘  (store refusals)
 *                                      └─► dead-letter topic
 * </pre>
 */
public final class CacheUpdaterJob {

    private CacheUpdaterJob() {
    }

    public static void define(StreamExecutionEnvironment env, Config config, Source<KafkaInput, ?, ?> source,
                              Sink<byte[]> deadLetterSink) {
        define(env, config, source, null, deadLetterSink);
    }

    /**
     * The job, and with {@code bootstrapSource} the bootstrapper beside it: its rows take the same
     * path (decode, keyBy, SCN-ordered write) through a write operator of their own, racing the live
     * changes in the store as separate jobs would. With {@code source} null, the bootstrapper alone.
     */
    public static void define(StreamExecutionEnvironment env, Config config, Source<KafkaInput, ?, ?> source,
                              Source<KafkaInput, ?, ?> bootstrapSource, Sink<byte[]> deadLetterSink) {
        CacheUpdaterSettings.validateJob(config, io.nearline.bootstrap.BootstrapSettings.DEF);
        CacheUpdaterSettings settings = CacheUpdaterSettings.from(config);
        env.setParallelism(settings.parallelism());
        env.enableCheckpointing(settings.checkpointInterval().toMillis());

        DataStream<byte[]> deadLetters = null;
        if (source != null) {
            SingleOutputStreamOperator<Change> changes = env
                    .fromSource(source, WatermarkStrategy.noWatermarks(), "cdc-source").uid("cdc-source")
                    .process(new DecodeFunction(settings.consumerGroup(), settings.maxPayloadBytes()))
                    .name("decode").uid("decode");
            deadLetters = write(changes, config, "write-cache");
        }
        if (bootstrapSource != null) {
            SingleOutputStreamOperator<Change> rows = env
                    .fromSource(bootstrapSource, WatermarkStrategy.noWatermarks(), "bootstrap-source").uid("bootstrap-source")
                    .process(new BootstrapDecodeFunction(settings.consumerGroup() + "-bootstrap", settings.maxPayloadBytes()))
                    .name("bootstrap-decode").uid("bootstrap-decode");
            DataStream<byte[]> more = write(rows, config, "bootstrap-write-cache");
            deadLetters = deadLetters == null ? more : deadLetters.union(more);
        }
        if (deadLetters != null) {
            deadLetters.sinkTo(deadLetterSink).name("dead-letters").uid("dead-letters");
        }
    }

    /** keyBy(cache key) into a write operator; returns every dead letter of the path. */
    private static DataStream<byte[]> write(SingleOutputStreamOperator<Change> changes, Config config, String name) {
        SingleOutputStreamOperator<Void> written = changes
                .keyBy(c -> c.key, Types.STRING)
                .transform(name, TypeInformation.of(Void.class), new CacheWriteOperator(config.asMap()))
                .uid(name);
        return changes.getSideOutput(DecodeFunction.DEAD_LETTERS).union(written.getSideOutput(DecodeFunction.DEAD_LETTERS));
    }

    /** The CDC topic from the committed offsets of the consumer group (earliest when it has none). */
    public static KafkaSource<KafkaInput> kafkaSource(CacheUpdaterSettings settings, boolean boundedToCurrentEnd) {
        return source(settings, settings.cdcTopic(), settings.consumerGroup(), boundedToCurrentEnd);
    }

    /** The bootstrap topic from the committed offsets of the bootstrapper's group (earliest when it has none). */
    public static KafkaSource<KafkaInput> bootstrapSource(CacheUpdaterSettings settings, String topic, boolean boundedToCurrentEnd) {
        return source(settings, topic, settings.consumerGroup() + "-bootstrap", boundedToCurrentEnd);
    }

    private static KafkaSource<KafkaInput> source(CacheUpdaterSettings settings, String topic, String group, boolean bounded) {
        KafkaSourceBuilder<KafkaInput> builder = KafkaSource.<KafkaInput>builder()
                .setBootstrapServers(settings.bootstrapServers())
                .setTopics(topic)
                .setGroupId(group)
                .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
                .setProperty("commit.offsets.on.checkpoint", "true")
                .setDeserializer(new RawDeserializer());
        if (bounded) {
            builder.setBounded(OffsetsInitializer.latest());
        }
        return builder.build();
    }

    public static Sink<byte[]> deadLetterSink(CacheUpdaterSettings settings) {
        return KafkaSink.<byte[]>builder()
                .setBootstrapServers(settings.bootstrapServers())
                .setRecordSerializer(KafkaRecordSerializationSchema.<byte[]>builder()
                        .setTopic(settings.deadLetterTopic())
                        .setValueSerializationSchema(new AsIs())
                        .build())
                .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .build();
    }

    /** Production entry point: {@code CacheUpdaterJob --config job.yaml [--set key=value ...]}. */
    public static void main(String[] args) throws Exception {
        Config config = Config.fromArgs(args);
        CacheUpdaterSettings settings = CacheUpdaterSettings.from(config);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        define(env, config, kafkaSource(settings, false), deadLetterSink(settings));
        env.execute("nearline-cache-updater");
    }

    /** Dead letters are encoded already. */
    static final class AsIs implements SerializationSchema<byte[]> {
        @Override
        public byte[] serialize(byte[] bytes) {
            return bytes;
        }
    }

    static final class RawDeserializer implements KafkaRecordDeserializationSchema<KafkaInput> {
        @Override
        public void deserialize(ConsumerRecord<byte[], byte[]> r, Collector<KafkaInput> out) throws IOException {
            out.collect(new KafkaInput(r.topic(), r.partition(), r.offset(), r.key(), r.value()));
        }

        @Override
        public TypeInformation<KafkaInput> getProducedType() {
            return TypeInformation.of(KafkaInput.class);
        }
    }
}
