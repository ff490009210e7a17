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
package io.nearline.localcluster.cdcreplay;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.RejectionReason;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.events.Rejection;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.cdcreference.ReplayInput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * The Kafka side of a replay: topics, the change events in, the dead letters out. Uses only client
 * API that Kafka 2.4 to 4.x share, so both engines' JVMs run it.
 */
public final class KafkaReplay {

    /** What was sent: events on the CDC topic, lines dead-lettered before they got there, the keys seen. */
    public record Sent(long events, long deadLettered, Set<CacheKey> keys) {}

    private KafkaReplay() {}

    /**
     * Sends every line that makes a record to {@code cdcTopic} (key: the cache key, or Debezium's record
     * key, so one key's events share a partition in file order); a line that does not goes straight to
     * {@code deadLetterTopic}, and so does a record the broker refuses as too large. Events that break
     * the rules (a negative SCN, say) are sent as they are, for the job to reject.
     */
    public static Sent send(
            KafkaClient kafka,
            String cdcTopic,
            String deadLetterTopic,
            List<ReplayInput.Line> lines,
            Runnable onEachLine) {
        return send(kafka, cdcTopic, deadLetterTopic, lines, line -> {}, onEachLine);
    }

    /** As above, {@code beforeEach} told of each line just before it is sent (a live run paces them there). */
    public static Sent send(
            KafkaClient kafka,
            String cdcTopic,
            String deadLetterTopic,
            List<ReplayInput.Line> lines,
            Consumer<ReplayInput.Line> beforeEach,
            Runnable onEachLine) {
        long events = 0;
        long dead = 0;
        Set<CacheKey> keys = new LinkedHashSet<>();
        Map<ReplayInput.Line, Exception> refused = new ConcurrentHashMap<>();
        try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(kafka)) {
            for (ReplayInput.Line line : lines) {
                beforeEach.accept(line);
                if (line.record() != null) {
                    producer.send(
                            new ProducerRecord<>(
                                    cdcTopic, line.record().key(), line.record().value()),
                            (metadata, e) -> {
                                if (e != null) {
                                    refused.put(line, e);
                                }
                            });
                    // an event whose key cannot be a cache key is dead-lettered by the job, never cached
                    if (line.decoded().ok()) {
                        ChangeEvents.validCacheKey(line.decoded().event()).ifPresent(keys::add);
                    }
                    events++;
                } else {
                    producer.send(new ProducerRecord<>(
                            deadLetterTopic,
                            null,
                            deadLetter(line, line.decoded().rejection())));
                    dead++;
                }
                onEachLine.run();
            }
            producer.flush(); // every callback has run
            for (Map.Entry<ReplayInput.Line, Exception> r : refused.entrySet()) {
                ReplayInput.Line line = r.getKey();
                if (!(r.getValue() instanceof RecordTooLargeException)) {
                    throw new IllegalStateException(
                            line.file() + ":" + line.number() + " could not be sent: " + r.getValue(), r.getValue());
                }
                int size = size(line.record().key()) + size(line.record().value());
                producer.send(new ProducerRecord<>(
                        deadLetterTopic, null, deadLetter(line, Rejection.tooLarge("a record", size, cdcTopic))));
                events--;
                dead++;
            }
            producer.flush();
        }
        return new Sent(events, dead, keys);
    }

    private static byte[] deadLetter(ReplayInput.Line line, RejectionReason why) {
        byte[] text = line.text().getBytes(StandardCharsets.UTF_8);
        return DeadLetters.encode(DeadLetters.of(
                new SourceRecord("replay", line.file(), -1, line.number(), null, DeadLetters.head(text)),
                why,
                System.currentTimeMillis()));
    }

    private static int size(byte[] b) {
        return b == null ? 0 : b.length;
    }

    /** Every dead letter on the topic so far, as JSON lines, in partition then offset order. */
    public static List<String> deadLetters(KafkaClient kafka, String topic) {
        List<String> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : KafkaTopics.readAll(kafka, topic)) {
            out.add(DeadLetters.toJson(DeadLetters.decode(r.value())));
        }
        return out;
    }
}
