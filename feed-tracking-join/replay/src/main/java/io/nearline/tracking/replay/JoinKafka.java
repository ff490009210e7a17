package io.nearline.tracking.replay;

import io.nearline.common.deadletter.DeadLetters;
import io.nearline.localcluster.replay.KafkaTopics;
import io.nearline.tracking.join.Events;
import io.nearline.tracking.join.JoinSettings;
import io.nearline.tracking.join.TrackingCodec;
import io.nearline.tracking.join.TrackingRejection;
import io.nearline.tracking.join.local.JoinOutputs;
import io.nearline.tracking.join.local.JoinPartitions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/** The Kafka side of a join replay: the topics, the events in, the outputs back. */
public final class JoinKafka {

    private JoinKafka() {}

    public static void createTopics(String bootstrap, JoinSettings s, int partitions) {
        KafkaTopics.createTopics(
                bootstrap,
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
    public static long send(String bootstrap, JoinSettings s, int partitions, JoinInputs inputs, Runnable onEach) {
        long sent = 0;
        try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(bootstrap)) {
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
                                "replay",
                                bad.file().toString(),
                                -1,
                                bad.number(),
                                null,
                                bad.text().getBytes(StandardCharsets.UTF_8),
                                new TrackingRejection(TrackingRejection.UNDECODABLE, bad.reason()),
                                System.currentTimeMillis()))));
                onEach.run();
            }
            producer.flush();
        }
        return sent;
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, int partitions, String requestId, byte[] value) {
        return new ProducerRecord<>(
                topic, JoinPartitions.of(requestId, partitions), requestId.getBytes(StandardCharsets.UTF_8), value);
    }

    /** Everything the job wrote, as sorted JSON lines. */
    public static JoinOutputs outputs(String bootstrap, JoinSettings s) {
        List<Events.Joined> joined = new ArrayList<>();
        List<Events.Orphan> orphans = new ArrayList<>();
        List<Events.Late> late = new ArrayList<>();
        try {
            for (ConsumerRecord<byte[], byte[]> r : KafkaTopics.readAll(bootstrap, s.joinedTopic())) {
                joined.add(TrackingCodec.decodeJoined(r.value()));
            }
            for (ConsumerRecord<byte[], byte[]> r : KafkaTopics.readAll(bootstrap, s.orphansTopic())) {
                orphans.add(TrackingCodec.decodeOrphan(r.value()));
            }
            for (ConsumerRecord<byte[], byte[]> r : KafkaTopics.readAll(bootstrap, s.lateTopic())) {
                late.add(TrackingCodec.decodeLate(r.value()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("an output record the job wrote does not decode", e);
        }
        return JoinOutputs.of(joined, orphans, late);
    }

    public static List<String> deadLetters(String bootstrap, JoinSettings s) {
        List<String> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : KafkaTopics.readAll(bootstrap, s.deadLetterTopic())) {
            out.add(DeadLetters.toJson(DeadLetters.decode(r.value())));
        }
        return out;
    }
}
