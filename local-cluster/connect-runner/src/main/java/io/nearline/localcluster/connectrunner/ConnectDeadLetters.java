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
package io.nearline.localcluster.connectrunner;

import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.RejectionReason;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The cache sink's dead letters, as Kafka Connect's dead-letter queue holds them (the original record,
 * and Connect's context headers: the source's topic, partition and offset, and the connector's
 * {@code REASON: detail} as the exception message), turned into the jobs' dead letters, so a replay
 * on Connect reports them exactly as one on Flink or Samza.
 */
final class ConnectDeadLetters {

    static final String TOPIC = "__connect.errors.topic";
    static final String PARTITION = "__connect.errors.partition";
    static final String OFFSET = "__connect.errors.offset";
    static final String MESSAGE = "__connect.errors.exception.message";
    static final String EXCEPTION = "__connect.errors.exception.class.name";

    /** A reason as the connector wrote it. */
    record Reason(String code, String detail) implements RejectionReason {}

    private ConnectDeadLetters() {}

    /** Every record of Connect's dead-letter topic {@code from}, in the jobs' form, onto {@code to}; returns how many. */
    static int copy(KafkaClient kafka, String from, String to, String job) {
        int n = 0;
        try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(kafka)) {
            for (ConsumerRecord<byte[], byte[]> r : KafkaTopics.readAll(kafka, from)) {
                producer.send(new ProducerRecord<>(
                        to, DeadLetters.encode(DeadLetters.of(source(r, job), reason(r.headers()), r.timestamp()))));
                n++;
            }
            producer.flush();
        }
        return n;
    }

    /** Where the dead-lettered record came from, by Connect's context headers, with its original key and value. */
    static SourceRecord source(ConsumerRecord<byte[], byte[]> r, String job) {
        Headers h = r.headers();
        return new SourceRecord(
                job,
                text(h, TOPIC, "(unknown topic)"),
                Integer.parseInt(text(h, PARTITION, "-1")),
                Long.parseLong(text(h, OFFSET, "-1")),
                r.key(),
                r.value());
    }

    /**
     * The connector's reason ({@code REASON: detail}); a record dead-lettered by Connect itself (a
     * converter or transform failing before the connector saw it) is named by its exception.
     */
    static RejectionReason reason(Headers h) {
        String message = text(h, MESSAGE, "");
        String exception = text(h, EXCEPTION, "");
        if (exception.endsWith(".RejectedRecordException")) {
            int colon = message.indexOf(':');
            return colon < 0
                    ? new Reason(message, "")
                    : new Reason(
                            message.substring(0, colon),
                            message.substring(colon + 1).strip());
        }
        return new Reason("CONNECT_ERROR", (exception + ": " + message).strip());
    }

    private static String text(Headers headers, String key, String otherwise) {
        Header h = headers.lastHeader(key);
        return h == null || h.value() == null ? otherwise : new String(h.value(), StandardCharsets.UTF_8);
    }
}
