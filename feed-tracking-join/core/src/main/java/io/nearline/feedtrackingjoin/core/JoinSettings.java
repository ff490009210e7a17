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
package io.nearline.feedtrackingjoin.core;

import io.nearline.common.config.Check;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.JobKeys;
import io.nearline.common.config.KafkaSecurity;
import io.nearline.common.config.ValueType;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;

/** Settings of the feed-tracking-join job, the same on both engines. */
public record JoinSettings(
        String bootstrapServers,
        String indexTopic,
        String brokerTopic,
        String joinedTopic,
        String orphansTopic,
        String lateTopic,
        String deadLetterTopic,
        String consumerGroup,
        Duration window,
        Duration allowedLateness,
        Duration idleTimeout,
        Duration stallTimeout,
        EmitComplete emitComplete,
        OutputDelivery outputDelivery,
        String transactionalIdPrefix,
        Duration transactionTimeout,
        int outputMaxBytes) {

    /** When a complete request is emitted. */
    public enum EmitComplete {
        /** Once the watermark passes its last event: the output does not depend on arrival order. */
        WATERMARK,
        /** As soon as its broker event and last expected fragment are in, without waiting for the lateness. */
        EAGER
    }

    /** How the Flink job writes its four output topics. */
    public enum OutputDelivery {
        /** In Kafka transactions committed with each checkpoint: read_committed readers see each output once. */
        EXACTLY_ONCE,
        /** At once, without transactions: outputs since the last checkpoint are written again after a failure. */
        AT_LEAST_ONCE
    }

    public static final ConfigKey<String> INDEX_TOPIC = topic(
            "tracking.index-topic",
            "tracking.index",
            "Topic of index-node fragments (Avro TrackingFragment, key = requestId in UTF-8).");
    public static final ConfigKey<String> BROKER_TOPIC = topic(
            "tracking.broker-topic",
            "tracking.broker",
            "Topic of broker events (Avro BrokerTrackingEvent, key = requestId); as many partitions as the index topic.");
    public static final ConfigKey<String> JOINED_TOPIC =
            topic("tracking.joined-topic", "tracking.joined", "Output: one JoinedTrackingEvent per request.");
    public static final ConfigKey<String> ORPHANS_TOPIC = topic(
            "tracking.orphans-topic",
            "tracking.orphans",
            "Output: fragments whose broker event did not come in time (OrphanedFragments).");
    public static final ConfigKey<String> LATE_TOPIC = topic(
            "tracking.late-topic",
            "tracking.late",
            "Output: events that came too late to be joined (LateTrackingEvent, with the reason).");
    public static final ConfigKey<String> DEAD_LETTER_TOPIC = topic(
            "tracking.dead-letter-topic",
            "tracking.dlq",
            "Output: input records that are not valid events (Avro DeadLetter, with the reason).");
    public static final ConfigKey<String> CONSUMER_GROUP = ConfigKey.of(
                    "tracking.consumer-group",
                    ValueType.STRING,
                    "nearline-tracking-join",
                    "Consumer group of the join (Flink); the job name in dead letters.")
            .checked(Check.notBlank());
    public static final ConfigKey<Duration> WINDOW = ConfigKey.of(
                    "join.window",
                    ValueType.DURATION,
                    Duration.ofSeconds(10),
                    "Event time a request's fragments and broker event may spread over, from its earliest event; when it "
                            + "closes, an incomplete request is emitted partial (or orphaned).")
            .checked(Check.positiveDuration());
    public static final ConfigKey<Duration> ALLOWED_LATENESS = ConfigKey.of(
                    "join.allowed-lateness",
                    ValueType.DURATION,
                    Duration.ofSeconds(2),
                    "How much older than its partition's newest event an event may be and still be "
                            + "joined (the watermark's out-of-orderness bound). Results wait about this long.")
            .checked(Check.positiveDuration());
    public static final ConfigKey<Duration> IDLE_TIMEOUT = ConfigKey.of(
                    "join.idle-timeout",
                    ValueType.DURATION,
                    Duration.ofSeconds(30),
                    "A partition with no new event for this long, while the job reads the others, stops holding the "
                            + "watermark back, so a quiet partition does not hold results back forever.")
            .checked(Check.positiveDuration());
    public static final ConfigKey<Duration> STALL_TIMEOUT = ConfigKey.of(
                    "join.stall-timeout",
                    ValueType.DURATION,
                    Duration.ofMinutes(5),
                    "When every partition a reader reads goes quiet at once (a broker restart, a network cut), none "
                            + "counts idle for up to this long, so their events, read again later, are joined in their "
                            + "windows instead of coming late. A topic with no traffic at all holds results back this "
                            + "long. At least join.idle-timeout.")
            .checked(Check.positiveDuration());

    public static final ConfigKey<EmitComplete> EMIT_COMPLETE = ConfigKey.of(
            "join.emit-complete",
            ValueType.enumOf(EmitComplete.class),
            EmitComplete.WATERMARK,
            "watermark: events are applied in event-time order once the watermark passes them, so a complete join "
                    + "waits about the allowed lateness and the outputs do not depend on arrival order; eager: events "
                    + "are applied as they arrive and a complete join is emitted at once (milliseconds), while windows "
                    + "still close on the watermark; repeats that arrive after the emission then go to the late "
                    + "output instead of being counted in duplicatesDropped.");
    public static final ConfigKey<OutputDelivery> OUTPUT_DELIVERY = ConfigKey.of(
            "join.output.delivery",
            ValueType.enumOf(OutputDelivery.class),
            OutputDelivery.EXACTLY_ONCE,
            "Flink: exactly-once writes the joined, orphans, late and dead-letter topics in Kafka transactions "
                    + "committed with each checkpoint, so readers with isolation.level=read_committed see every output "
                    + "once, a checkpoint interval after it was made; at-least-once writes at once and, after a failure, "
                    + "again what was written since the last checkpoint. Samza 1.8 has no transactional producer: "
                    + "always at least once there.");
    public static final ConfigKey<String> TRANSACTIONAL_ID_PREFIX = ConfigKey.of(
            "join.output.transactional-id-prefix",
            ValueType.STRING,
            "",
            "Flink, exactly-once: prefix of the output producers' transactional ids, unique per job on a Kafka "
                    + "cluster (two jobs sharing one abort each other's transactions). Empty: the consumer group.");
    public static final ConfigKey<Duration> TRANSACTION_TIMEOUT = ConfigKey.of(
                    "join.output.transaction-timeout",
                    ValueType.DURATION,
                    Duration.ofMinutes(10),
                    "Flink, exactly-once: how long the broker keeps an output transaction open. Must exceed the "
                            + "checkpoint interval plus the longest restart, and be at most the broker's "
                            + "transaction.max.timeout.ms (15m by default).")
            .checked(Check.positiveDuration());

    public static final ConfigKey<Integer> OUTPUT_MAX_BYTES = ConfigKey.of(
                    "join.output.max-bytes",
                    ValueType.INT,
                    1_000_000,
                    "The largest joined, orphan or late output sent, in bytes; a larger one is dead-lettered "
                            + "(RECORD_TOO_LARGE, its first 64 KiB kept) instead of failing the job again after every "
                            + "restart. At most the output topics' max.message.bytes and the producers' "
                            + "max.request.size, less about 100 bytes of record overhead.")
            .checked(Check.between(1, 64 * 1024 * 1024));

    public static final ConfigDef DEF = ConfigDef.of(
                    "feed-tracking-join job",
                    JobKeys.BOOTSTRAP_SERVERS,
                    INDEX_TOPIC,
                    BROKER_TOPIC,
                    JOINED_TOPIC,
                    ORPHANS_TOPIC,
                    LATE_TOPIC,
                    DEAD_LETTER_TOPIC,
                    CONSUMER_GROUP,
                    WINDOW,
                    ALLOWED_LATENESS,
                    IDLE_TIMEOUT,
                    STALL_TIMEOUT,
                    EMIT_COMPLETE,
                    OUTPUT_DELIVERY,
                    TRANSACTIONAL_ID_PREFIX,
                    TRANSACTION_TIMEOUT,
                    OUTPUT_MAX_BYTES)
            .withInvariant(
                    c -> {
                        List<String> topics = List.of(
                                c.get(INDEX_TOPIC),
                                c.get(BROKER_TOPIC),
                                c.get(JOINED_TOPIC),
                                c.get(ORPHANS_TOPIC),
                                c.get(LATE_TOPIC),
                                c.get(DEAD_LETTER_TOPIC));
                        return new HashSet<>(topics).size() == topics.size();
                    },
                    "the six 'tracking.*-topic' settings must name six different topics: an output read again as input "
                            + "would loop.")
            .withInvariant(
                    c -> c.get(STALL_TIMEOUT).compareTo(c.get(IDLE_TIMEOUT)) >= 0,
                    "join.stall-timeout must be at least join.idle-timeout: raise join.stall-timeout or lower "
                            + "join.idle-timeout.");

    private static ConfigKey<String> topic(String name, String defaultTopic, String description) {
        return ConfigKey.of(name, ValueType.STRING, defaultTopic, description).checked(Check.notBlank());
    }

    /** Every setting the job reads, typos caught: call it before starting. */
    public static void validateJob(Config config) {
        config.validateComplete(DEF, KafkaSecurity.DEF);
    }

    public static JoinSettings from(Config config) {
        config.validate(DEF);
        return new JoinSettings(
                config.get(JobKeys.BOOTSTRAP_SERVERS),
                config.get(INDEX_TOPIC),
                config.get(BROKER_TOPIC),
                config.get(JOINED_TOPIC),
                config.get(ORPHANS_TOPIC),
                config.get(LATE_TOPIC),
                config.get(DEAD_LETTER_TOPIC),
                config.get(CONSUMER_GROUP),
                config.get(WINDOW),
                config.get(ALLOWED_LATENESS),
                config.get(IDLE_TIMEOUT),
                config.get(STALL_TIMEOUT),
                config.get(EMIT_COMPLETE),
                config.get(OUTPUT_DELIVERY),
                config.get(TRANSACTIONAL_ID_PREFIX).isBlank()
                        ? config.get(CONSUMER_GROUP)
                        : config.get(TRANSACTIONAL_ID_PREFIX).strip(),
                config.get(TRANSACTION_TIMEOUT),
                config.get(OUTPUT_MAX_BYTES));
    }
}
