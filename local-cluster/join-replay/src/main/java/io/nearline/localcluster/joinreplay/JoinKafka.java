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
package io.nearline.localcluster.joinreplay;

import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.feedtrackingjoin.core.JoinPartitions;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.feedtrackingjoin.core.TrackingCodec;
import io.nearline.feedtrackingjoin.core.TrackingRejection;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.joinreference.JoinOutputs;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/** The Kafka side of a join replay: the topics, the events in, the outputs back. */
public final class JoinKafka {

    private JoinKafka() {}

    public static void createTopics(KafkaClient kafka, JoinSettings s, int partitions) {
        KafkaTopics.createTopics(
                kafka,
                Map.of(
                        s.indexTopic(),
                        partitions,
                        s.brokerTopic(),
                        partitions,
                        s.joinedTopic(),
                        partitions,
                        s.orphansTopic(),
                        1,
                        s.lateTopic(),
                        1,
                        s.deadLetterTopic(),
                        1));
    }

    /**
     * Sends the events, each request to the same partition of both topics, each file's order kept per
     * partition; bad lines go straight to the dead-letter topic. Returns the events sent.
     */
    public static long send(KafkaClient kafka, JoinSettings s, int partitions, JoinInputs inputs, Runnable onEach) {
        long sent = 0;
        try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(kafka)) {
            for (Events.Fragment f : inputs.fragments()) {
                producer.send(record(s.indexTopic(), partitions, f.requestId(), TrackingCodec.encode(f)));
                sent++;
                onEach.run();
            }
            for (Events.BrokerEvent b : inputs.brokers()) {
                producer.send(record(s.brokerTopic(), partitions, b.requestId(), TrackingCodec.encode(b)));
                sent++;
                onEach.run();
            }
            for (JoinInputs.BadLine bad : inputs.badLines()) {
                producer.send(new ProducerRecord<>(
                        s.deadLetterTopic(),
                        null,
                        DeadLetters.encode(DeadLetters.of(
                                new SourceRecord(
                                        "replay",
                                        bad.file().toString(),
                                        -1,
                                        bad.number(),
                                        null,
                                        bad.text().getBytes(StandardCharsets.UTF_8)),
                                new TrackingRejection(TrackingRejection.UNDECODABLE, bad.reason()),
                                System.currentTimeMillis()))));
                onEach.run();
            }
            producer.flush();
        }
        return sent;
    }

    /** The input topics' current ends: topic → partition → offset. */
    public static Map<String, Map<Integer, Long>> currentEnds(KafkaClient kafka, JoinSettings s) {
        return Map.of(
                s.indexTopic(), KafkaTopics.endOffsets(kafka, s.indexTopic()),
                s.brokerTopic(), KafkaTopics.endOffsets(kafka, s.brokerTopic()));
    }

    /** Where each input partition of fresh topics will end once {@link #sendLive} has sent these inputs. */
    public static Map<String, Map<Integer, Long>> endsAfter(JoinSettings s, int partitions, JoinInputs inputs) {
        Map<Integer, Long> index = new TreeMap<>();
        Map<Integer, Long> broker = new TreeMap<>();
        for (int p = 0; p < partitions; p++) {
            index.put(p, 0L);
            broker.put(p, 0L);
        }
        inputs.fragments().forEach(f -> index.merge(JoinPartitions.of(f.requestId(), partitions), 1L, Long::sum));
        inputs.brokers().forEach(b -> broker.merge(JoinPartitions.of(b.requestId(), partitions), 1L, Long::sum));
        return Map.of(s.indexTopic(), index, s.brokerTopic(), broker);
    }

    /**
     * Sends the events in live event time: each file's events in their order, each when the wall clock
     * reaches its event time shifted so that the earliest event is {@code startMillis} (and no earlier
     * than the event before it in its file), with its event time re-stamped to that shifted time. The
     * rate is the files' own. Returns the events sent; {@code onEach} is told each one.
     */
    public static long sendLive(
            KafkaClient kafka, JoinSettings s, int partitions, JoinInputs inputs, long startMillis, Runnable onEach)
            throws InterruptedException {
        long first = Long.MAX_VALUE;
        for (Events.Input e : inputs.fragments()) {
            first = Math.min(first, e.ts());
        }
        for (Events.Input e : inputs.brokers()) {
            first = Math.min(first, e.ts());
        }
        long shift = startMillis - first;
        List<Live> live = new ArrayList<>();
        long due = Long.MIN_VALUE;
        for (Events.Fragment f : inputs.fragments()) {
            due = Math.max(due, f.ts() + shift);
            live.add(new Live(
                    due,
                    record(
                            s.indexTopic(),
                            partitions,
                            f.requestId(),
                            TrackingCodec.encode(
                                    new Events.Fragment(f.requestId(), f.node(), f.ts() + shift, f.docs())))));
        }
        due = Long.MIN_VALUE;
        for (Events.BrokerEvent b : inputs.brokers()) {
            due = Math.max(due, b.ts() + shift);
            Events.BrokerEvent shifted = new Events.BrokerEvent(
                    b.requestId(), b.ts() + shift, b.fanout(), b.viewer(), b.ranking(), b.modelVersion());
            live.add(new Live(due, record(s.brokerTopic(), partitions, b.requestId(), TrackingCodec.encode(shifted))));
        }
        live.sort(Comparator.comparingLong(Live::due)); // stable: each file's order kept
        long sent = 0;
        try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(kafka)) {
            for (Live l : live) {
                long wait = l.due() - System.currentTimeMillis();
                if (wait > 0) {
                    Thread.sleep(wait);
                }
                producer.send(l.record());
                sent++;
                onEach.run();
            }
            producer.flush();
        }
        return sent;
    }

    private record Live(long due, ProducerRecord<byte[], byte[]> record) {}

    private static ProducerRecord<byte[], byte[]> record(String topic, int partitions, String requestId, byte[] value) {
        return new ProducerRecord<>(
                topic, JoinPartitions.of(requestId, partitions), requestId.getBytes(StandardCharsets.UTF_8), value);
    }

    /** Everything the job wrote, as sorted JSON lines of whole records read apart from the job's codec. */
    public static JoinOutputs outputs(KafkaClient kafka, JoinSettings s) {
        return JoinOutputs.ofAvro(
                values(kafka, s.joinedTopic()), values(kafka, s.orphansTopic()), values(kafka, s.lateTopic()));
    }

    private static List<byte[]> values(KafkaClient kafka, String topic) {
        return KafkaTopics.readAll(kafka, topic).stream()
                .map(ConsumerRecord::value)
                .toList();
    }

    public static List<String> deadLetters(KafkaClient kafka, JoinSettings s) {
        List<String> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : KafkaTopics.readAll(kafka, s.deadLetterTopic())) {
            out.add(DeadLetters.toJson(DeadLetters.decode(r.value())));
        }
        return out;
    }
}
