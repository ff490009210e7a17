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

import io.nearline.common.config.Config;
import io.nearline.engines.flinkkit.KafkaClientSecurity;
import io.nearline.engines.flinkkit.RestorableBoundedKafkaSource;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/** What the join reads and writes: two input sources and four output sinks. {@link #kafka} is the production I/O. */
public record TrackingJoinIo(
        Source<TrackingInput, ?, ?> index,
        Source<TrackingInput, ?, ?> broker,
        Sink<KafkaOutput> joined,
        Sink<KafkaOutput> orphans,
        Sink<KafkaOutput> late,
        Sink<KafkaOutput> deadLetters) {

    /**
     * The job's topics, read from the committed offsets of its consumer group (earliest when it has
     * none); {@code bounded}: up to the topics' end at start, so the job ends by itself (replays).
     */
    public static TrackingJoinIo kafka(Config config, boolean bounded) {
        return kafka(config, bounded ? OffsetsInitializer.latest() : null);
    }

    /**
     * The job's topics read up to given offsets ({@code ends}: topic → partition → offset), so a job
     * started before its input is all written still ends by itself (a live-rate replay).
     */
    public static TrackingJoinIo kafka(Config config, Map<String, Map<Integer, Long>> ends) {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        ends.forEach((topic, byPartition) ->
                byPartition.forEach((partition, offset) -> offsets.put(new TopicPartition(topic, partition), offset)));
        return kafka(config, OffsetsInitializer.offsets(offsets));
    }

    private static TrackingJoinIo kafka(Config config, OffsetsInitializer stopAt) {
        JoinSettings s = JoinSettings.from(config);
        Properties security = KafkaClientSecurity.of(config);
        return new TrackingJoinIo(
                source(s, security, s.indexTopic(), stopAt),
                source(s, security, s.brokerTopic(), stopAt),
                sink(s, security, s.joinedTopic(), "joined"),
                sink(s, security, s.orphansTopic(), "orphans"),
                sink(s, security, s.lateTopic(), "late"),
                sink(s, security, s.deadLetterTopic(), "dead-letters"));
    }

    // The connector takes only the Kafka client\'s deprecated OffsetResetStrategy here.
    @SuppressWarnings("deprecation")
    private static Source<TrackingInput, ?, ?> source(
            JoinSettings s, Properties security, String topic, OffsetsInitializer stopAt) {
        KafkaSourceBuilder<TrackingInput> builder = KafkaSource.<TrackingInput>builder()
                .setProperties(security)
                .setBootstrapServers(s.bootstrapServers())
                .setTopics(topic)
                .setGroupId(s.consumerGroup())
                .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
                .setProperty("commit.offsets.on.checkpoint", "true")
                .setDeserializer(new InputDeserializer(
                        s.brokerTopic(), s.allowedLateness().toMillis()));
        if (stopAt != null) {
            // still ending after a restore (RestorableBoundedKafkaSource)
            builder.setBounded(stopAt);
            return new RestorableBoundedKafkaSource<>(builder.build());
        }
        return builder.build();
    }

    /**
     * Exactly once (the default): records go out in a transaction per checkpoint, each sink with its
     * own transactional id prefix; read_committed readers see them once the checkpoint completes.
     * At least once: after a failure, records since the last checkpoint are written again.
     */
    private static Sink<KafkaOutput> sink(JoinSettings s, Properties security, String topic, String output) {
        KafkaSinkBuilder<KafkaOutput> builder = KafkaSink.<KafkaOutput>builder()
                .setKafkaProducerConfig(security)
                .setBootstrapServers(s.bootstrapServers())
                .setRecordSerializer(new Keyed(topic));
        if (s.outputDelivery() == JoinSettings.OutputDelivery.AT_LEAST_ONCE) {
            return builder.setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE).build();
        }
        return builder.setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(s.transactionalIdPrefix() + "-" + output)
                .setProperty(
                        ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                        String.valueOf(s.transactionTimeout().toMillis()))
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
            return new ProducerRecord<>(
                    topic, out.key == null ? null : out.key.getBytes(StandardCharsets.UTF_8), out.value);
        }
    }
}
