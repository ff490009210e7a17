package io.nearline.cacheupdater.replay;

import io.nearline.cacheupdater.core.events.ChangeEventCodec;
import io.nearline.cacheupdater.core.events.ChangeEvents;
import io.nearline.cacheupdater.core.replay.ReplayInput;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.localcluster.replay.KafkaTopics;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The Kafka side of a replay: topics, the change events in, the dead letters out. Uses only client
 * API that Kafka 2.4 to 4.x share, so both engines' JVMs run it.
 */
public final class KafkaReplay {

    /** What was sent: events on the CDC topic, lines dead-lettered before they got there, the keys seen. */
    public record Sent(long events, long deadLettered, Set<CacheKey> keys) {}

    private KafkaReplay() {}

    /**
     * Sends every line that is a change event to {@code cdcTopic} (key: the cache key, so one key's events
     * share a partition in file order); a line that is not one goes straight to {@code deadLetterTopic}.
     * Events that break the rules (a negative SCN, say) are sent as they are, for the job to reject.
     */
    public static Sent send(
            String bootstrap,
            String cdcTopic,
            String deadLetterTopic,
            List<ReplayInput.Line> lines,
            Runnable onEachLine) {
        long events = 0;
        long dead = 0;
        Set<CacheKey> keys = new LinkedHashSet<>();
        try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(bootstrap)) {
            for (ReplayInput.Line line : lines) {
                if (line.decoded().ok()) {
                    String key = line.decoded().event().getKey();
                    producer.send(new ProducerRecord<>(
                            cdcTopic,
                            key.getBytes(StandardCharsets.UTF_8),
                            ChangeEventCodec.encode(line.decoded().event())));
                    // an event whose key cannot be a cache key is dead-lettered by the job, never cached
                    ChangeEvents.validCacheKey(line.decoded().event()).ifPresent(keys::add);
                    events++;
                } else {
                    producer.send(new ProducerRecord<>(
                            deadLetterTopic,
                            null,
                            DeadLetters.encode(DeadLetters.of(
                                    "replay",
                                    line.file(),
                                    -1,
                                    line.number(),
                                    null,
                                    line.text().getBytes(StandardCharsets.UTF_8),
                                    line.decoded().rejection(),
                                    System.currentTimeMillis()))));
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
        for (ConsumerRecord<byte[], byte[]> r : KafkaTopics.readAll(bootstrap, topic)) {
            out.add(DeadLetters.toJson(DeadLetters.decode(r.value())));
        }
        return out;
    }
}
