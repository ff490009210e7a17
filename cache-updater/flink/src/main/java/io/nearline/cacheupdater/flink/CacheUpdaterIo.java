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
import io.nearline.cdcbootstrap.core.BootstrapSettings;
import io.nearline.common.config.Config;
import io.nearline.common.store.StoreOpener;
import io.nearline.engines.flinkkit.KafkaClientSecurity;
import io.nearline.engines.flinkkit.RestorableBoundedKafkaSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;

/**
 * What the cache-updater job reads and writes: change events, bootstrap records (either may be
 * absent), the dead-letter sink, and how its tasks open the cache. {@link #kafka} is the production
 * I/O, with the store {@code cache.store} names.
 */
public record CacheUpdaterIo(
        Source<KafkaInput, ?, ?> changes,
        Source<KafkaInput, ?, ?> bootstrap,
        Sink<byte[]> deadLetters,
        StoreOpener cache) {

    /** The store {@code cache.store} names as the cache. */
    public CacheUpdaterIo(
            Source<KafkaInput, ?, ?> changes, Source<KafkaInput, ?, ?> bootstrap, Sink<byte[]> deadLetters) {
        this(changes, bootstrap, deadLetters, StoreOpener.CONFIGURED);
    }

    /** This I/O with the cache opened through {@code opener} (a local tool's stores). */
    public CacheUpdaterIo withCache(StoreOpener opener) {
        return new CacheUpdaterIo(changes, bootstrap, deadLetters, opener);
    }

    /** Which of the job's topics it reads. */
    public enum Inputs {
        /** The CDC topic: the cache updater alone. */
        CHANGES,
        /** The bootstrap topic: the bootstrapper alone. */
        BOOTSTRAP,
        /** Both: the cache updater with the bootstrapper in the same job. */
        BOTH;

        /** The cache updater's inputs, with the bootstrap topic or without. */
        public static Inputs changes(boolean withBootstrap) {
            return withBootstrap ? BOTH : CHANGES;
        }

        boolean changes() {
            return this != BOOTSTRAP;
        }

        boolean bootstrap() {
            return this != CHANGES;
        }
    }

    /** How far the job reads its topics. */
    public enum Reading {
        /** On and on: the job runs until it is stopped (production). */
        LIVE,
        /** Up to the topics' end when the job starts, so that it ends by itself (replays). */
        TO_THE_END
    }

    /**
     * The job's topics, each from its consumer group's committed offsets (earliest when it has none).
     */
    public static CacheUpdaterIo kafka(Config config, Inputs inputs, Reading reading) {
        CacheUpdaterSettings settings = CacheUpdaterSettings.from(config);
        Properties security = KafkaClientSecurity.of(config);
        boolean bounded = reading == Reading.TO_THE_END;
        return new CacheUpdaterIo(
                inputs.changes()
                        ? source(settings, security, settings.cdcTopic(), settings.readerGroup(false), bounded)
                        : null,
                inputs.bootstrap()
                        ? source(
                                settings,
                                security,
                                BootstrapSettings.from(config).topic(),
                                settings.readerGroup(true),
                                bounded)
                        : null,
                deadLetterSink(settings, security));
    }

    /**
     * The CDC topic only, read up to given offsets (partition → offset), so a job started before its
     * input is all written still ends by itself (a live-rate replay).
     */
    public static CacheUpdaterIo kafkaChangesUpTo(Config config, Map<Integer, Long> ends) {
        CacheUpdaterSettings settings = CacheUpdaterSettings.from(config);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        ends.forEach((partition, offset) -> offsets.put(new TopicPartition(settings.cdcTopic(), partition), offset));
        Properties security = KafkaClientSecurity.of(config);
        return new CacheUpdaterIo(
                source(
                        settings,
                        security,
                        settings.cdcTopic(),
                        settings.readerGroup(false),
                        OffsetsInitializer.offsets(offsets)),
                null,
                deadLetterSink(settings, security));
    }

    private static Source<KafkaInput, ?, ?> source(
            CacheUpdaterSettings settings, Properties security, String topic, String group, boolean bounded) {
        return source(settings, security, topic, group, bounded ? OffsetsInitializer.latest() : null);
    }

    // The connector takes only the Kafka client\'s deprecated OffsetResetStrategy here.
    @SuppressWarnings("deprecation")
    private static Source<KafkaInput, ?, ?> source(
            CacheUpdaterSettings settings, Properties security, String topic, String group, OffsetsInitializer stopAt) {
        KafkaSourceBuilder<KafkaInput> builder = KafkaSource.<KafkaInput>builder()
                .setProperties(security)
                .setBootstrapServers(settings.bootstrapServers())
                .setTopics(topic)
                .setGroupId(group)
                .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
                .setProperty("commit.offsets.on.checkpoint", "true")
                .setDeserializer(new RawDeserializer());
        if (stopAt != null) {
            // still ending after a restore (RestorableBoundedKafkaSource)
            builder.setBounded(stopAt);
            return new RestorableBoundedKafkaSource<>(builder.build());
        }
        return builder.build();
    }

    static Sink<byte[]> deadLetterSink(CacheUpdaterSettings settings, Properties security) {
        return KafkaSink.<byte[]>builder()
                .setKafkaProducerConfig(security)
                .setBootstrapServers(settings.bootstrapServers())
                .setRecordSerializer(KafkaRecordSerializationSchema.<byte[]>builder()
                        .setTopic(settings.deadLetterTopic())
                        .setValueSerializationSchema(new AsIs())
                        .build())
                .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .build();
    }

    /** Dead letters are encoded already. */
    static final class AsIs implements SerializationSchema<byte[]> {
        @Override
        public byte[] serialize(byte[] bytes) {
            return bytes;
        }
    }

    /** Each record untouched, with its position: decoding happens in the job, where a failure is a dead letter. */
    static final class RawDeserializer implements KafkaRecordDeserializationSchema<KafkaInput> {
        @Override
        public void deserialize(ConsumerRecord<byte[], byte[]> r, Collector<KafkaInput> out) {
            out.collect(new KafkaInput(r.topic(), r.partition(), r.offset(), r.key(), r.value()));
        }

        @Override
        public TypeInformation<KafkaInput> getProducedType() {
            return TypeInformation.of(KafkaInput.class);
        }
    }
}
