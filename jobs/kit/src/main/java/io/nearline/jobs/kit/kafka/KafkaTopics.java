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
package io.nearline.jobs.kit.kafka;

import io.nearline.jobs.kit.console.RateMeter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Topics on the local broker for replays, benchmarks and the demo: create them, write to them in
 * order, read them back, time a plain consumer. Uses only client API that Kafka 2.4 to 4.x share, so
 * both engines' JVMs run it.
 */
public final class KafkaTopics {

    private KafkaTopics() {}

    /** How many brokers {@code kafka} leads to, asked within {@code limit}; an IllegalStateException saying why not. */
    public static int brokers(KafkaClient kafka, Duration limit) {
        Map<String, Object> props = kafka.properties();
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) limit.toMillis());
        try (Admin admin = Admin.create(props)) {
            // the call's own timeout too: else closing the client waits out the default minute
            return admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) limit.toMillis()))
                    .nodes()
                    .get(limit.toMillis(), TimeUnit.MILLISECONDS)
                    .size();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException("no answer within " + limit.toSeconds() + " s", e);
        }
    }

    public static void createTopics(KafkaClient kafka, Map<String, Integer> partitionsByTopic) {
        Map<String, Object> props = kafka.properties();
        try (Admin admin = Admin.create(props)) {
            List<NewTopic> topics = new ArrayList<>();
            partitionsByTopic.forEach((name, partitions) -> topics.add(new NewTopic(name, partitions, (short) 1)));
            try {
                admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException("cannot create topics " + partitionsByTopic, e.getCause());
                }
            }
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException("cannot create topics " + partitionsByTopic, e);
        }
    }

    /**
     * Every committed record on {@code topic} up to its current end: records of open or aborted
     * transactions (a Flink job's exactly-once outputs before their checkpoint, or after a failure) are
     * not read, as a production consumer with isolation.level=read_committed would not. Sorted by
     * partition, then offset. What could be read in 60 s where the end was not reached.
     */
    public static List<ConsumerRecord<byte[], byte[]>> readAll(KafkaClient kafka, String topic) {
        return read(kafka, topic, Duration.ofSeconds(60)).records();
    }

    /** As {@link #readAll}, but a read that does not reach the topic's end within {@code limit} fails. */
    public static List<ConsumerRecord<byte[], byte[]>> readToEnd(KafkaClient kafka, String topic, Duration limit) {
        Read read = read(kafka, topic, limit);
        if (!read.complete()) {
            throw new IllegalStateException("reading " + topic + " on " + kafka + " did not reach its end within "
                    + limit.toSeconds() + " s (" + read.records().size() + " records read)");
        }
        return read.records();
    }

    private record Read(List<ConsumerRecord<byte[], byte[]>> records, boolean complete) {}

    private static Read read(KafkaClient kafka, String topic, Duration limit) {
        Map<String, Object> props = kafka.properties();
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        boolean complete;
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Map<TopicPartition, Long> end = fromBeginning(consumer, topic);
            long deadline = System.nanoTime() + limit.toNanos();
            while (!(complete = caughtUp(consumer, end)) && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        out.sort((a, b) -> a.partition() != b.partition()
                ? Integer.compare(a.partition(), b.partition())
                : Long.compare(a.offset(), b.offset()));
        return new Read(out, complete);
    }

    /**
     * The raw consume rate of {@code topic}: a plain consumer reading every record from the beginning
     * to the current end without decoding it, in records per second, measured as the job's rate is
     * (between 10 % and 90 % of the records); the median of three reads. The baseline a job's rate is
     * judged against.
     */
    public static double rawConsumeRate(KafkaClient kafka, String topic) {
        double[] reads = new double[3];
        for (int i = 0; i < reads.length; i++) {
            reads[i] = rawConsumeRateOnce(kafka, topic);
        }
        Arrays.sort(reads);
        return reads[1];
    }

    /** One plain consumer reading the whole topic from the beginning; its rate between 10 % and 90 % of it. */
    private static double rawConsumeRateOnce(KafkaClient kafka, String topic) {
        Map<String, Object> props = kafka.properties();
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, String.valueOf(64 * 1024 * 1024));
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(16 * 1024 * 1024));
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Map<TopicPartition, Long> end = fromBeginning(consumer, topic);
            long total = end.values().stream().mapToLong(Long::longValue).sum();
            AtomicLong records = new AtomicLong();
            try (RateMeter meter = new RateMeter(total, records::get)) {
                while (!caughtUp(consumer, end)) {
                    records.addAndGet(consumer.poll(Duration.ofMillis(200)).count());
                }
                Thread.sleep(20); // the meter samples every 5 ms: let it see the last count
                return meter.steadyRate();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Double.NaN;
            }
        }
    }

    /** Where each partition of {@code topic} ends now (the offset the next record will get), by partition. */
    public static Map<Integer, Long> endOffsets(KafkaClient kafka, String topic) {
        Map<String, Object> props = kafka.properties();
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Map<Integer, Long> out = new TreeMap<>();
            fromBeginning(consumer, topic).forEach((tp, end) -> out.put(tp.partition(), end));
            return out;
        }
    }

    /**
     * Assigns every partition of {@code topic} at its beginning; returns where each ends now (none for a
     * topic not created yet: its first record, a connector's say, creates it).
     */
    private static Map<TopicPartition, Long> fromBeginning(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        List<TopicPartition> partitions = new ArrayList<>();
        List<PartitionInfo> found = consumer.partitionsFor(topic);
        for (PartitionInfo p : found == null ? List.<PartitionInfo>of() : found) {
            partitions.add(new TopicPartition(topic, p.partition()));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return consumer.endOffsets(partitions);
    }

    private static boolean caughtUp(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** A producer that keeps each key's records in send order (one request in flight), for replays and the demo. */
    public static KafkaProducer<byte[], byte[]> producer(KafkaClient kafka) {
        Map<String, Object> props = kafka.properties();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        // One request in flight keeps each key's events in file order through retries. No idempotence: a
        // retry may duplicate an event, which the SCN-ordered write absorbs, and it spares the producer-id
        // handshake that a 2.x client can wait on for minutes against a busy 4.x broker.
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(16 * 1024 * 1024));
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    // The tools' embedded brokers take plaintext clients: these name them by address only.

    public static void createTopics(String bootstrap, Map<String, Integer> partitionsByTopic) {
        createTopics(KafkaClient.plaintext(bootstrap), partitionsByTopic);
    }

    public static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrap, String topic) {
        return readAll(KafkaClient.plaintext(bootstrap), topic);
    }

    public static Map<Integer, Long> endOffsets(String bootstrap, String topic) {
        return endOffsets(KafkaClient.plaintext(bootstrap), topic);
    }

    public static double rawConsumeRate(String bootstrap, String topic) {
        return rawConsumeRate(KafkaClient.plaintext(bootstrap), topic);
    }

    public static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        return producer(KafkaClient.plaintext(bootstrap));
    }
}
