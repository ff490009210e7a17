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
package io.nearline.cacheupdater.core;

import io.nearline.common.cache.CacheTtl;
import io.nearline.common.cache.ConsistentThroughEntry;
import io.nearline.common.config.Check;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.JobKeys;
import io.nearline.common.config.KafkaSecurity;
import io.nearline.common.config.ValueType;
import io.nearline.common.events.ChangeDecoder;
import io.nearline.common.events.DebeziumDecoder;
import io.nearline.common.events.DebeziumKeys;
import io.nearline.common.store.CacheStores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

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
        int maxInFlight,
        Duration maxPause,
        ChangeDecoder decoder,
        String schemaRegistryDir) {

    /** How the CDC topic's records are written. */
    public enum CdcFormat {
        /** This project's Avro ChangeEvent. */
        AVRO,
        /** Debezium's JSON envelope, with or without the JsonConverter's schema/payload wrapper. */
        DEBEZIUM_JSON
    }

    public static final ConfigKey<String> BOOTSTRAP_SERVERS = JobKeys.BOOTSTRAP_SERVERS;
    public static final ConfigKey<String> CDC_TOPIC = ConfigKey.of(
                    "cdc.topic",
                    ValueType.STRING,
                    "nearline.cdc",
                    "Topic of change events (by cdc.format; Avro ChangeEvent: key = cache key in UTF-8).")
            .checked(Check.notBlank());
    public static final ConfigKey<CdcFormat> CDC_FORMAT = ConfigKey.of(
            "cdc.format",
            ValueType.enumOf(CdcFormat.class),
            CdcFormat.AVRO,
            "Form of the CDC topic's records: avro (this project's ChangeEvent) or debezium-json (Debezium's JSON "
                    + "envelope; see docs/debezium.md).");
    public static final ConfigKey<String> DEBEZIUM_TABLES = ConfigKey.of(
            "cdc.debezium.tables",
            ValueType.STRING,
            "",
            "debezium-json: comma-separated tables the job takes, as the connector names them: SCHEMA.TABLE "
                    + "(PostgreSQL, Oracle) or DB.TABLE (MySQL, MariaDB). A change of another table is "
                    + "dead-lettered UNKNOWN_TABLE. With several, each key names its table "
                    + "(public.orders:5; docs/debezium.md#many-tables). Empty: every change, keys as for one table.");
    public static final ConfigKey<String> DEBEZIUM_KEY_FIELDS = ConfigKey.of(
            "cdc.debezium.key-fields",
            ValueType.STRING,
            "",
            "debezium-json: comma-separated fields whose values, joined by ':', make the cache key; each is "
                    + "looked up in the record key, then in the row image. Empty: the record key's own fields, in "
                    + "their order (the table's primary key), or id where the record key is not JSON.");
    public static final ConfigKey<String> DEBEZIUM_KEY_PREFIX = ConfigKey.of(
            "cdc.debezium.key-prefix", ValueType.STRING, "", "debezium-json: text put before every cache key.");
    public static final ConfigKey<String> DEBEZIUM_TABLE_KEY_FIELDS = ConfigKey.required(
                    "cdc.debezium.table.<table>.key-fields",
                    ValueType.STRING,
                    "debezium-json: the key fields of one table of cdc.debezium.tables (as cdc.debezium.key-fields, "
                            + "which it replaces for that table).")
            .checked(new Check<>("must name at least one field", v -> !fields(v).isEmpty()));
    public static final ConfigKey<String> DEBEZIUM_TABLE_KEY_PREFIX = ConfigKey.of(
            "cdc.debezium.table.<table>.key-prefix",
            ValueType.STRING,
            "",
            "debezium-json: put before the key values of one table of cdc.debezium.tables, after "
                    + "cdc.debezium.key-prefix, in place of 'SCHEMA.TABLE:'.");
    public static final ConfigKey<String> DEBEZIUM_VERSION_FIELD = ConfigKey.of(
                    "cdc.debezium.version-field",
                    ValueType.STRING,
                    DebeziumDecoder.AUTO,
                    "debezium-json: where an event's version is read: auto (in commit order, by source.connector: "
                            + "postgresql source.sequence and source.lsn, oracle source.commit_scn and source.txSeq, "
                            + "mysql and mariadb the binlog position; docs/debezium.md), mysql-binlog, or a dotted "
                            + "path such as source.commit_lsn.")
            .checked(Check.notBlank());
    public static final ConfigKey<NullValue> DEBEZIUM_NULL_VALUE = ConfigKey.of(
            "cdc.debezium.null-value",
            ValueType.enumOf(NullValue.class),
            NullValue.SKIP,
            "debezium-json: a record with a null value (Debezium's tombstone after a delete event, which already "
                    + "wrote a versioned tombstone): skip. 'delete' is refused: such a delete has no version "
                    + "(docs/debezium.md#unwrap).");

    /** What a record with a null value is ({@code cdc.debezium.null-value}). */
    public enum NullValue {
        /** Debezium's tombstone after a delete, which already wrote a versioned tombstone: nothing. */
        SKIP,
        /** Refused: a delete without a version, which redelivery, a bootstrap or a read-repair can undo. */
        DELETE
    }

    /** Why {@code null-value=delete} is refused, and what to do instead. */
    static final String UNVERSIONED_DELETES =
            "'cdc.debezium.null-value=delete' is refused: a delete with no version cannot be ordered against a "
                    + "row sent again after it, a bootstrap row or a read-repair write, so rows can be lost; "
                    + "keep deletes as rows with the unwrap transform's delete.tombstone.handling.mode=rewrite "
                    + "(docs/debezium.md#unwrap).";

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
    public static final ConfigKey<String> SCHEMA_REGISTRY_DIR = ConfigKey.of(
                    "schema.registry.dir",
                    ValueType.STRING,
                    "",
                    "Directory of the tables' Avro schemas (TABLE/vN.avsc), seen at the same path by every task. When "
                            + "set, an event whose schema version is not registered is dead-lettered as "
                            + "UNKNOWN_SCHEMA_VERSION, and one whose payload is not valid Avro under it as INVALID_PAYLOAD. "
                            + "Empty: payloads are not checked.")
            .checked(new Check<>(
                    "must be empty or an existing directory", v -> v.isBlank() || Files.isDirectory(Path.of(v))));
    public static final ConfigKey<Integer> BATCH_MAX_KEYS = ConfigKey.of(
                    "write.batch.max-keys",
                    ValueType.INT,
                    1000,
                    "Keys collected per task before their writes go out together (one write per key, the newest "
                            + "version). Samza also cuts a batch at half of task.max.concurrency messages.")
            .checked(Check.between(1, 1_000_000));
    public static final ConfigKey<Duration> BATCH_MAX_DELAY = ConfigKey.of(
                    "write.batch.max-delay",
                    ValueType.DURATION,
                    Duration.ofMillis(100),
                    "Longest time a change waits in a batch before it is written.")
            .checked(Check.positiveDuration());
    public static final ConfigKey<Integer> WRITE_THREADS = ConfigKey.of(
                    "write.threads",
                    ValueType.INT,
                    1,
                    "Threads per task writing a batch's keys in parallel, for a store that blocks. 1 (inline) is "
                            + "fastest for the embedded RocksDB store. Couchbase writes asynchronously and ignores it "
                            + "(see write.max-in-flight).")
            .checked(Check.between(1, 256));
    public static final ConfigKey<Integer> MAX_IN_FLIGHT = ConfigKey.of(
                    "write.max-in-flight",
                    ValueType.INT,
                    UpdateBatch.MAX_IN_FLIGHT,
                    "A store that writes asynchronously (Couchbase): most writes of a task in flight at once; each key "
                            + "has at most one, and a batch is complete before the next one starts.")
            .checked(Check.between(1, 65_536));
    public static final ConfigKey<Boolean> FRESHNESS_METRICS = ConfigKey.of(
            "write.freshness-metrics",
            ValueType.BOOLEAN,
            true,
            "Measure each change from its commit to the write: the freshness histograms, consistent-through and the "
                    + "per-table outcomes (table.writes), labelled by table and partition. false leaves the job-wide "
                    + "counters only (fewer series; docs/operations.md has what this costs).");
    public static final ConfigKey<Duration> PUBLISH_THROUGH_EVERY = ConfigKey.of(
                    "write.consistent-through.publish-every",
                    ValueType.DURATION,
                    Duration.ZERO,
                    "Publish each table's and partition's consistent-through in the store beside the data, at most this "
                            + "often, for readers' staleness bounds and read-your-writes (docs/reading.md). 0 (the "
                            + "default) publishes nothing. Needs write.freshness-metrics=true.")
            .checked(new Check<>("must be >= 0", d -> !d.isNegative()));
    public static final ConfigKey<String> PUBLISH_THROUGH_KEY_PREFIX = ConfigKey.of(
                    "write.consistent-through.key-prefix",
                    ValueType.STRING,
                    ConsistentThroughEntry.DEFAULT_KEY_PREFIX,
                    "Where the published consistent-through entries go: no table's keys may start with it, nor it "
                            + "with a table's key prefix (checked for Debezium's tables).")
            .checked(Check.notBlank());
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
                    CDC_FORMAT,
                    DEBEZIUM_TABLES,
                    DEBEZIUM_KEY_FIELDS,
                    DEBEZIUM_KEY_PREFIX,
                    DEBEZIUM_TABLE_KEY_FIELDS,
                    DEBEZIUM_TABLE_KEY_PREFIX,
                    CacheTtl.PER_TABLE,
                    DEBEZIUM_VERSION_FIELD,
                    DEBEZIUM_NULL_VALUE,
                    DEAD_LETTER_TOPIC,
                    CONSUMER_GROUP,
                    CacheStores.STORE,
                    MAX_PAYLOAD_BYTES,
                    SCHEMA_REGISTRY_DIR,
                    BATCH_MAX_KEYS,
                    BATCH_MAX_DELAY,
                    WRITE_THREADS,
                    MAX_IN_FLIGHT,
                    MAX_PAUSE,
                    FRESHNESS_METRICS,
                    PUBLISH_THROUGH_EVERY,
                    PUBLISH_THROUGH_KEY_PREFIX)
            .withInvariant(
                    c -> !c.get(CDC_TOPIC).equals(c.get(DEAD_LETTER_TOPIC)),
                    "'cdc.topic' and 'cdc.dead-letter-topic' must differ: rejected events would be read again.")
            .withInvariant(
                    c -> c.get(CDC_FORMAT) == CdcFormat.AVRO
                            || c.get(SCHEMA_REGISTRY_DIR).isBlank(),
                    "'schema.registry.dir' checks Avro payloads; with cdc.format=debezium-json the payload is JSON: "
                            + "leave the registry out.")
            .withInvariant(c -> c.get(DEBEZIUM_NULL_VALUE) == NullValue.SKIP, UNVERSIONED_DELETES)
            .withInvariant(
                    c -> unlistedTables(c).isEmpty(),
                    "a 'cdc.debezium.table.<table>.*' key names a table that 'cdc.debezium.tables' does not list: "
                            + "add the table there, or correct its name (SCHEMA.TABLE or DB.TABLE).")
            .withInvariant(
                    c -> debeziumKeys(c).sharedKeySpace().isEmpty(),
                    "two tables of 'cdc.debezium.tables' would share cache keys (the same key prefix, or one the "
                            + "start of another's, so that rows of both could meet under one key): give each its own "
                            + "'cdc.debezium.table.<table>.key-prefix', none the start of another's.")
            .withInvariant(
                    c -> c.get(PUBLISH_THROUGH_EVERY).isZero() || c.get(FRESHNESS_METRICS),
                    "'write.consistent-through.publish-every' needs the watermark that 'write.freshness-metrics=true' "
                            + "tracks: turn the metrics on, or set publish-every to 0.")
            .withInvariant(
                    c -> c.get(PUBLISH_THROUGH_EVERY).isZero()
                            || throughKeysMeetRows(c).isEmpty(),
                    "'write.consistent-through.key-prefix' and a table's keys could meet: give the table (or "
                            + "'cdc.debezium.key-prefix') a prefix that neither starts it nor starts with it.");

    /**
     * The tables of a Debezium job whose row keys could equal a published consistent-through entry's key;
     * empty for the text form, whose keys the events carry (docs/reading.md says what to avoid there).
     */
    static List<String> throughKeysMeetRows(Config c) {
        if (c.get(CDC_FORMAT) != CdcFormat.DEBEZIUM_JSON) {
            return List.of();
        }
        String through = c.get(PUBLISH_THROUGH_KEY_PREFIX);
        DebeziumKeys keys = debeziumKeys(c);
        List<String> tables = keys.tables().isEmpty()
                ? List.of("")
                : List.copyOf(keys.tables().keySet());
        return tables.stream()
                .filter(t -> {
                    String rows = keys.prefixOf(t);
                    return rows.startsWith(through) || through.startsWith(rows);
                })
                .toList();
    }

    /**
     * Every setting the job reads, the chosen store's included, typos caught: call it before starting.
     * {@code more}: the settings of what runs with it (the bootstrapper's).
     */
    public static void validateJob(Config config, ConfigDef... more) {
        ConfigDef[] all = new ConfigDef[4 + more.length];
        all[0] = DEF;
        all[1] = WriterSettings.DEF;
        all[2] = KafkaSecurity.DEF;
        all[3] = CacheStores.provider(config).settings();
        System.arraycopy(more, 0, all, 4, more.length);
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
                config.get(MAX_IN_FLIGHT),
                config.get(MAX_PAUSE),
                decoder(config),
                config.get(SCHEMA_REGISTRY_DIR).strip());
    }

    /** The decoder of the CDC topic's records that {@code cdc.format} names. */
    public static ChangeDecoder decoder(Config config) {
        return switch (config.get(CDC_FORMAT)) {
            case AVRO -> ChangeDecoder.AVRO;
            case DEBEZIUM_JSON ->
                new DebeziumDecoder(
                        debeziumKeys(config), config.get(DEBEZIUM_VERSION_FIELD).strip());
        };
    }

    /** The tables a Debezium stream's job takes and how their rows are keyed. */
    public static DebeziumKeys debeziumKeys(Config config) {
        Map<String, DebeziumKeys.Table> tables = new LinkedHashMap<>();
        for (String table : fields(config.get(DEBEZIUM_TABLES))) {
            ConfigKey<String> ownFields = DEBEZIUM_TABLE_KEY_FIELDS.at(table);
            ConfigKey<String> ownPrefix = DEBEZIUM_TABLE_KEY_PREFIX.at(table);
            tables.put(
                    table,
                    new DebeziumKeys.Table(
                            config.isSet(ownFields) ? fields(config.get(ownFields)) : List.of(),
                            config.isSet(ownPrefix) ? config.get(ownPrefix) : null));
        }
        return new DebeziumKeys(config.get(DEBEZIUM_KEY_PREFIX), fields(config.get(DEBEZIUM_KEY_FIELDS)), tables);
    }

    /**
     * The TTLs of tables that have their own ({@code cdc.debezium.table.<table>.ttl}), by the prefix their
     * keys start with; empty for a job of Avro events.
     */
    public static Map<String, Duration> ttlByKeyPrefix(Config config) {
        if (config.get(CDC_FORMAT) != CdcFormat.DEBEZIUM_JSON) {
            return Map.of();
        }
        DebeziumKeys keys = debeziumKeys(config);
        Map<String, Duration> out = new LinkedHashMap<>();
        for (String table : config.instances(CacheTtl.PER_TABLE)) {
            out.put(keys.prefixOf(table), config.get(CacheTtl.PER_TABLE.at(table)));
        }
        return out;
    }

    /** Tables named by a per-table key that {@code cdc.debezium.tables} does not list. */
    private static List<String> unlistedTables(Config config) {
        List<String> listed = fields(config.get(DEBEZIUM_TABLES));
        return Stream.of(DEBEZIUM_TABLE_KEY_FIELDS, DEBEZIUM_TABLE_KEY_PREFIX, CacheTtl.PER_TABLE)
                .flatMap(k -> config.instances(k).stream())
                .filter(t -> !listed.contains(t))
                .toList();
    }

    private static List<String> fields(String list) {
        return Arrays.stream(list.split(","))
                .map(String::strip)
                .filter(f -> !f.isEmpty())
                .toList();
    }
}
