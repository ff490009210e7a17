package io.nearline.cacheupdater.core;

import io.nearline.common.config.Check;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.JobKeys;
import io.nearline.common.config.ValueType;
import io.nearline.common.store.CacheStores;
import java.time.Duration;

/** Settings of the cache-updater job, the same on both engines. Store and writer settings are separate. */
public record CacheUpdaterSettings(
        String bootstrapServers,
        String cdcTopic,
        String deadLetterTopic,
        String consumerGroup,
        int maxPayloadBytes,
        int batchMaxKeys,
        Duration batchMaxDelay,
        int writeThreads,
        Duration maxPause) {

    public static final ConfigKey<String> BOOTSTRAP_SERVERS = JobKeys.BOOTSTRAP_SERVERS;
    public static final ConfigKey<String> CDC_TOPIC = ConfigKey.of(
                    "cdc.topic",
                    ValueType.STRING,
                    "nearline.cdc",
                    "Topic of change events (Avro ChangeEvent, key = cache key in UTF-8).")
            .checked(Check.notBlank());
    public static final ConfigKey<String> DEAD_LETTER_TOPIC = ConfigKey.of(
                    "cdc.dead-letter-topic",
                    ValueType.STRING,
                    "nearline.cdc.dlq",
                    "Topic that receives rejected input with the reason (Avro DeadLetter).")
            .checked(Check.notBlank());
    public static final ConfigKey<String> CONSUMER_GROUP = ConfigKey.of(
                    "cdc.consumer-group",
                    ValueType.STRING,
                    "nearline-cache-updater",
                    "Consumer group of the cache updater (the bootstrapper's is this plus '-bootstrap'); the job name in dead letters.")
            .checked(Check.notBlank());
    public static final ConfigKey<Integer> MAX_PAYLOAD_BYTES = ConfigKey.of(
                    "cache.max-payload-bytes",
                    ValueType.INT,
                    1024 * 1024,
                    "Largest payload accepted; larger change events are dead-lettered as OVERSIZED_PAYLOAD.")
            .checked(Check.between(1, 20 * 1024 * 1024));
    public static final ConfigKey<Integer> BATCH_MAX_KEYS = ConfigKey.of(
                    "write.batch.max-keys",
                    ValueType.INT,
                    1000,
                    "Flink: keys collected per task before their writes go out together (one write per key, the newest "
                            + "version). Samza writes each message as it comes.")
            .checked(Check.between(1, 1_000_000));
    public static final ConfigKey<Duration> BATCH_MAX_DELAY = ConfigKey.of(
                    "write.batch.max-delay",
                    ValueType.DURATION,
                    Duration.ofMillis(100),
                    "Flink: longest time a change waits in a batch before it is written.")
            .checked(Check.positiveDuration());
    public static final ConfigKey<Integer> WRITE_THREADS = ConfigKey.of(
                    "write.threads",
                    ValueType.INT,
                    1,
                    "Flink: threads per task writing a batch's keys in parallel. 1 (inline) is fastest for the embedded "
                            + "RocksDB store; raise it for a networked store (about 16 for Couchbase).")
            .checked(Check.between(1, 256));
    public static final ConfigKey<Duration> MAX_PAUSE = ConfigKey.of(
                    "write.outage.max-pause",
                    ValueType.DURATION,
                    Duration.ofSeconds(30),
                    "While the store fails, pending writes are retried with pauses growing up to this; "
                            + "input is not pulled meanwhile.")
            .checked(Check.positiveDuration());

    public static final ConfigDef DEF = ConfigDef.of(
                    "cache-updater job",
                    BOOTSTRAP_SERVERS,
                    CDC_TOPIC,
                    DEAD_LETTER_TOPIC,
                    CONSUMER_GROUP,
                    CacheStores.STORE,
                    MAX_PAYLOAD_BYTES,
                    BATCH_MAX_KEYS,
                    BATCH_MAX_DELAY,
                    WRITE_THREADS,
                    MAX_PAUSE)
            .withInvariant(
                    c -> !c.get(CDC_TOPIC).equals(c.get(DEAD_LETTER_TOPIC)),
                    "'cdc.topic' and 'cdc.dead-letter-topic' must differ: rejected events would be read again.");

    /**
     * Every setting the job reads, the chosen store's included, typos caught: call it before starting.
     * {@code more}: the settings of what runs with it (the bootstrapper's).
     */
    public static void validateJob(Config config, ConfigDef... more) {
        ConfigDef[] all = new ConfigDef[3 + more.length];
        all[0] = DEF;
        all[1] = WriterSettings.DEF;
        all[2] = CacheStores.provider(config).settings();
        System.arraycopy(more, 0, all, 3, more.length);
        config.validateComplete(all);
    }

    /**
     * The consumer group that reads the CDC topic, or the bootstrap topic: the bootstrapper keeps its
     * position apart from the updater's. Also who rejected a record, in its dead letter.
     */
    public String readerGroup(boolean fromBootstrap) {
        return fromBootstrap ? consumerGroup + "-bootstrap" : consumerGroup;
    }

    public static CacheUpdaterSettings from(Config config) {
        config.validate(DEF, WriterSettings.DEF);
        return new CacheUpdaterSettings(
                config.get(BOOTSTRAP_SERVERS),
                config.get(CDC_TOPIC),
                config.get(DEAD_LETTER_TOPIC),
                config.get(CONSUMER_GROUP),
                config.get(MAX_PAYLOAD_BYTES),
                config.get(BATCH_MAX_KEYS),
                config.get(BATCH_MAX_DELAY),
                config.get(WRITE_THREADS),
                config.get(MAX_PAUSE));
    }
}
