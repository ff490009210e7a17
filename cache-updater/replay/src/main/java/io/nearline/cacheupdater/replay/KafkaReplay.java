package io.nearline.cacheupdater.replay;

import io.nearline.cacheupdater.core.events.ChangeEventCodec;
import io.nearline.cacheupdater.core.events.ChangeEvents;
import io.nearline.cacheupdater.core.events.DeadLetters;
import io.nearline.cacheupdater.core.replay.ReplayInput;
import io.nearline.common.cache.CacheKey;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The Kafka side of a replay: topics, the change events in, the dead letters out. Uses only client
 * API that Kafka 2.4 to 4.x share, so both engines' JVMs run it.
 */
public final class KafkaReplay {

    /** What was sent: events on the CDC topic, lines dead-lettered before they got there, the keys seen. */
    public record Sent(long events, long deadLettered, Set<CacheKey> keys) {
    }

    private KafkaReplay() {
    }

    public static void createTopics(String bootstrap, Map<String, Integer> partitionsByTopic) {
        Map<String, Object> props = new HashMap<>();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
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
        } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot create topics " + partitionsByTopic, e);
        }
    }

    /**
     * Sends every line that is a change event to {@code cdcTopic} (key: the cache key, so one key's events
     * share a partition in file order); a line that is not one goes straight to {@code deadLetterTopic}.
     * Events that break the rules (a negative SCN, say) are sent as they are, for the job to reject.
     */
    public static Sent send(String bootstrap, String cdcTopic, String deadLetterTopic, List<ReplayInput.Line> lines,
                            Runnable onEachLine) {
        long events = 0;
        long dead = 0;
        Set<CacheKey> keys = new LinkedHashSet<>();
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap)) {
            for (ReplayInput.Line line : lines) {
                if (line.decoded().ok()) {
                    String key = line.decoded().event().getKey();
                    producer.send(new ProducerRecord<>(cdcTopic, key.getBytes(StandardCharsets.UTF_8),
                            ChangeEventCodec.encode(line.decoded().event())));
                    try {
                        keys.add(ChangeEvents.cacheKey(line.decoded().event()));
                    } catch (IllegalArgumentException invalidKey) {
                        // the job dead-letters it; it never reaches the cache
                    }
                    events++;
                } else {
                    producer.send(new ProducerRecord<>(deadLetterTopic, null, DeadLetters.encode(DeadLetters.of(
                            "replay", line.file(), -1, line.number(), null, line.text().getBytes(StandardCharsets.UTF_8),
                            line.decoded().rejection(), System.currentTimeMillis()))));
                    dead++;
                }
                onEachLine.run();
            }
            producer.flush();
        }
        return new Sent(events, dead, keys);
    }

    /** Every dead letter on the topic so far, as JSON lines, in partition then offset order. */
    public static List<String> deadLetters(String bootstrap, String topic) {
        List<String> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : readAll(bootstrap, topic)) {
            out.add(DeadLetters.toJson(DeadLetters.decode(r.value())));
        }
        return out;
    }

    /** Every record on {@code topic} up to its current end. */
    public static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrap, String topic) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Map<TopicPartition, Long> end = fromBeginning(consumer, topic);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!caughtUp(consumer, end) && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        out.sort((a, b) -> a.partition() != b.partition() ? Integer.compare(a.partition(), b.partition())
                : Long.compare(a.offset(), b.offset()));
        return out;
    }

    /**
     * The raw consume rate of {@code topic}: one plain consumer reading every record from the beginning
     * to the current end without decoding it, in records per second. The baseline a job's rate is
     * judged against.
     */
    public static double rawConsumeRate(String bootstrap, String topic) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, String.valueOf(64 * 1024 * 1024));
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(16 * 1024 * 1024));
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Map<TopicPartition, Long> end = fromBeginning(consumer, topic);
            long records = 0;
            long started = System.nanoTime();
            while (!caughtUp(consumer, end)) {
                records += consumer.poll(Duration.ofMillis(200)).count();
            }
            return records / ((System.nanoTime() - started) / 1e9);
        }
    }

    /** Assigns every partition of {@code topic} at its beginning; returns where each ends now. */
    private static Map<TopicPartition, Long> fromBeginning(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (PartitionInfo p : consumer.partitionsFor(topic)) {
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
    public static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
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
}
