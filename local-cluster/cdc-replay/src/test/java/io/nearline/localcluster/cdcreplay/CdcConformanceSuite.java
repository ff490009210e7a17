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

import static io.nearline.common.testkit.Tiers.SLOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.common.config.Config;
import io.nearline.common.events.DebeziumDecoder;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.testkit.ChangeEventGenerator;
import io.nearline.common.testkit.RedisServerProcess;
import io.nearline.common.testkit.Seeds;
import io.nearline.localcluster.cdcreference.CoreReplay;
import io.nearline.localcluster.cdcreference.ReplayInput;
import io.nearline.localcluster.cdcreference.Scenarios;
import io.nearline.localcluster.kit.faults.OutageStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The cache updater's conformance suite: the same scenario files through an engine's real job
 * ({@code replay cdc}: broker, engine, RocksDB store) and through the core alone; final states must
 * be identical and equal the oracle's, every bad line dead-lettered, and a store outage must cost
 * nothing. Each engine module runs it by naming how to start a replay.
 */
public abstract class CdcConformanceSuite {

    @TempDir
    protected Path dir;

    /** Runs the engine's {@code replay cdc} with these arguments; returns its exit code. */
    protected abstract int replay(List<String> args);

    /** The engine's counters in this JVM (as the last replay left them). */
    protected abstract InMemoryMetrics engineMetrics();

    /**
     * Whether the engine runs the bootstrapper beside the job (--snapshot). The cache sink connector
     * has none: its snapshot tests are skipped, and its crash tests run on the change stream alone.
     */
    protected boolean bootstraps() {
        return true;
    }

    /**
     * Whether the job runs in a JVM of the replay's, whose runner gives it the tools' stores (the outage
     * switch, {@code outage.enabled}). Not so for a connector in a Kafka Connect worker, whose store
     * outages are real ones.
     */
    protected boolean takesInjectedStores() {
        return true;
    }

    private void assumeBootstraps() {
        Assumptions.assumeTrue(bootstraps(), "this engine runs no bootstrapper (--snapshot)");
    }

    static List<String> scenarios() {
        return Scenarios.CDC;
    }

    private int replay(Path events, Path out, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "--events",
                events.toString(),
                "--out",
                out.toString(),
                "--work-dir",
                dir.resolve("work").toString(),
                "--partitions",
                "3"));
        args.addAll(List.of(more));
        return replay(args);
    }

    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @ParameterizedTest
    @MethodSource("io.nearline.localcluster.cdcreplay.CdcConformanceSuite#scenarios")
    void engineEndsWhereTheCoreEnds(String scenario) throws Exception {
        Path events = Scenarios.copy(scenario, dir);
        Path out = dir.resolve("state.jsonl");
        Path dlq = dir.resolve("dlq.jsonl");
        assertEquals(0, replay(events, out, "--dlq-out", dlq.toString()));

        List<String> core = coreState(events);
        assertEquals(Scenarios.expectedState(events), core, "core vs oracle");
        assertEquals(core, Files.readAllLines(out), "engine vs core");
        assertEquals(
                Scenarios.expectedDeadLetters(events), Files.readAllLines(dlq).size(), "dead letters");
    }

    /**
     * The same scenarios into Redis: a redis-server started by the replay, reached through Lettuce, the
     * ordered write done on the server. The final state and the dead letters must be the core's.
     */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @ParameterizedTest
    @MethodSource("io.nearline.localcluster.cdcreplay.CdcConformanceSuite#scenarios")
    protected void onRedisEngineEndsWhereTheCoreEnds(String scenario) throws Exception {
        assumeRedis();
        Path events = Scenarios.copy(scenario, dir);
        Path out = dir.resolve("state.jsonl");
        Path dlq = dir.resolve("dlq.jsonl");
        assertEquals(0, replay(events, out, "--dlq-out", dlq.toString(), "--store", "redis"));
        assertEquals(coreState(events), Files.readAllLines(out), "engine on Redis vs core");
        assertEquals(
                Scenarios.expectedDeadLetters(events), Files.readAllLines(dlq).size(), "dead letters");
    }

    /** Runs a Redis test only where redis-server is installed (CI requires it: {@link RedisServerProcess#skipReason}). */
    static void assumeRedis() {
        Optional<String> skip = RedisServerProcess.skipReason();
        Assumptions.assumeTrue(skip.isEmpty(), () -> skip.orElse(""));
    }

    /**
     * The store is down for the first seconds of the job: every call fails, longer than a write's own
     * retries last. The job must hold on to those writes and wait the outage out (not pulling more
     * input meanwhile) and end exactly where the core ends: nothing dropped.
     */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void aStoreOutageIsWaitedOutAndNothingIsLost() throws Exception {
        Assumptions.assumeTrue(takesInjectedStores(), "the job runs apart from the replay's JVM: no injected store");
        Path events = Scenarios.copy("scrambled.jsonl", dir);
        Path out = dir.resolve("state.jsonl");
        OutageStore.reset();
        assertEquals(
                0,
                replay(
                        events,
                        out,
                        "--set",
                        "outage.enabled=true",
                        "--set",
                        "outage.after-open=3s",
                        "--set",
                        "write.outage.max-pause=500ms",
                        "--set",
                        "write.max-attempts=3"));
        assertTrue(OutageStore.refusedCalls() > 0, "the outage never hit the job");
        assertTrue(engineMetrics().count("write.retries.unavailable") > 0, "no retries were counted");
        // writes outlived their own retries: what saved them is the job holding on to them
        assertTrue(engineMetrics().count("write.failed") > 0, "the outage was shorter than the writer's retries");
        assertEquals(Scenarios.expectedState(events), Files.readAllLines(out), "state after the outage");
    }

    /**
     * Bad input on both inputs and a store that refuses some keys for good: change events and snapshot
     * rows the job must reject (a negative SCN, a key too long for the cache) and writes the store
     * refuses. Every engine must dead-letter them alike: the same reason, detail, job, source record,
     * key and value bytes (the timestamp aside), listed in {@code bad-input.dead-letters.jsonl}, while
     * the good records around them are written.
     */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void badInputAndRefusedWritesAreDeadLetteredAlike() throws Exception {
        Assumptions.assumeTrue(takesInjectedStores(), "the job runs apart from the replay's JVM: no injected store");
        assumeBootstraps();
        Path events = Scenarios.copy("bad-input.jsonl", dir);
        Path snapshot = Scenarios.copy("bootstrap", "bad-snapshot.jsonl", dir);
        Path out = dir.resolve("state.jsonl");
        Path dlq = dir.resolve("dlq.jsonl");
        assertEquals(
                1, // the bad rows leave the bootstrap unverified: the run says so
                replay(
                        events,
                        out,
                        "--snapshot",
                        snapshot.toString(),
                        "--dlq-out",
                        dlq.toString(),
                        "--set",
                        "outage.enabled=true",
                        "--set",
                        "outage.refuse-prefix=refused:"));
        List<String> expected = Scenarios.lines("cdc", "bad-input.dead-letters.jsonl");
        List<String> actual = Files.readAllLines(dlq).stream()
                .map(CdcConformanceSuite::withoutPublishTime)
                .sorted()
                .toList();
        assertEquals(expected, actual, "dead letters");
        List<String> written = Files.readAllLines(out).stream()
                .map(line -> line.substring(0, line.indexOf(',')))
                .toList();
        assertEquals(List.of("{\"key\":\"ok:1\"", "{\"key\":\"ok:2\"", "{\"key\":\"snap:ok\""), written);
    }

    /**
     * Debezium's JSON as the CDC topic's form (cdc.format=debezium-json): envelopes with and without the
     * schema/payload wrapper, record keys and keys from the row image, updates out of order, a repeated
     * delivery, deletes with the tombstone record that follows them, a delete before an older update,
     * snapshot reads, and PostgreSQL's two commit-order races (an insert that waited for a delete, with
     * a lower change LSN; a transaction open across the snapshot, below the reads' LSN), whose versions
     * carry a sequence (record format 2). Every engine and the core end in the hand-checked state; the
     * records without a usable version, key or op, and a truncate, are dead-lettered with their
     * reason, the tombstones skipped.
     */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void debeziumInputEndsAtTheNewestVersionPerKey() throws Exception {
        Path events = Scenarios.copy("debezium-mixed.jsonl", dir);
        Path out = dir.resolve("state.jsonl");
        Path dlq = dir.resolve("dlq.jsonl");
        assertEquals(0, replay(events, out, "--format", "debezium", "--dlq-out", dlq.toString()));
        List<String> expected = Scenarios.lines("cdc", "debezium-mixed.state.jsonl");
        assertEquals(expected, Files.readAllLines(out), "engine");
        List<String> core = CoreReplay.run(
                        ReplayInput.read(List.of(events), new DebeziumDecoder(List.of("id"), "", DebeziumDecoder.AUTO)),
                        new InMemoryCacheStore(),
                        WriterSettings.defaults(),
                        1024 * 1024)
                .state();
        assertEquals(expected, core, "core");
        List<String> reasons = new ArrayList<>();
        for (String line : Files.readAllLines(dlq)) {
            reasons.add(JSON.readTree(line).get("reason").asText());
        }
        reasons.sort(null);
        assertEquals(List.of("BAD_SCN", "MISSING_KEY", "TRUNCATE", "UNDECODABLE"), reasons, "dead letters");
        assertEquals(4, engineMetrics().count("events.skipped"), "tombstones skipped");
    }

    /**
     * Real captures of a connector's whole stream: a PostgreSQL 15 and a MariaDB 10.11, each written by
     * racing transactions and read by Debezium's own connector (scenarios/cdc/README.md says how they
     * were made), three tables in one topic: items, tags (whose ids are items' numbers too) and links
     * (keyed by two columns). Replayed through the engine with the tables listed, each must leave exactly
     * every table it came from: every row cached with its values under a key naming its table, every
     * other key gone. The tables, read from the database when the capture was made, are the oracle; they
     * are compared here as plain JSON, without Nearline's code.
     */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @ParameterizedTest
    @ValueSource(strings = {"postgres", "mariadb"})
    void aConnectorsWholeStreamEndsEqualToEveryTable(String database) throws Exception {
        Path events = Scenarios.copy("captured-" + database + ".jsonl", dir);
        Path out = dir.resolve("state.jsonl");
        Path dlq = dir.resolve("dlq.jsonl");
        List<String> captured = Files.readAllLines(events);
        assertEquals(
                0,
                replay(
                        events,
                        out,
                        "--format",
                        "debezium",
                        "--dlq-out",
                        dlq.toString(),
                        "--set",
                        "cdc.debezium.tables=" + String.join(",", tablesOf(captured))));
        Map<String, JsonNode> table = capturedTable(database);
        assertEquals(3, tablesOf(captured).size(), "three tables in the stream");
        assertEquals(table, liveRows(Files.readAllLines(out)), "the cache is every table");
        assertEquals(List.of(), Files.readAllLines(dlq), "no dead letters");
    }

    /**
     * The unwrap transform's rows with delete.tombstone.handling.mode=rewrite: each delete a row with
     * __deleted "true" and its version, the null-value records dropped, the source's table and version
     * fields added as the documented add.fields recipe adds them. The capture, then its last quarter
     * sent again (as a connector restarted from an older offset sends it), then the snapshot's reads
     * again (a bootstrap after it), ends equal to every table on the engine and in the core; so does the
     * snapshot's reads sent first (a bootstrap before the stream).
     */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @ParameterizedTest
    @ValueSource(strings = {"postgres", "mariadb"})
    void rewrittenDeletesSurviveRedeliveryAndBootstraps(String database) throws Exception {
        List<String> rewritten = rewritten(Files.readAllLines(Scenarios.copy("captured-" + database + ".jsonl", dir)));
        List<String> reads =
                rewritten.stream().filter(l -> l.contains("\"__op\":\"r\"")).toList();
        List<String> sent = new ArrayList<>(reads);
        sent.addAll(rewritten);
        sent.addAll(rewritten.subList(rewritten.size() * 3 / 4, rewritten.size()));
        sent.addAll(reads);
        Path events = dir.resolve("rewritten-" + database + ".jsonl");
        Files.write(events, sent);
        String tables = "cdc.debezium.tables="
                + String.join(",", tablesOf(Files.readAllLines(dir.resolve("captured-" + database + ".jsonl"))));
        Map<String, JsonNode> table = capturedTable(database);

        List<String> core = CoreReplay.run(
                        ReplayInput.read(
                                List.of(events),
                                CacheUpdaterSettings.decoder(Config.of(Map.of(
                                        "cdc.format",
                                        "debezium-json",
                                        "cdc.debezium.tables",
                                        tables.substring(tables.indexOf('=') + 1))))),
                        new InMemoryCacheStore(),
                        WriterSettings.defaults(),
                        1024 * 1024)
                .state();
        assertEquals(table, liveRows(core), "core");
        Path out = dir.resolve("state.jsonl");
        Path dlq = dir.resolve("dlq.jsonl");
        assertEquals(0, replay(events, out, "--format", "debezium", "--dlq-out", dlq.toString(), "--set", tables));
        assertEquals(table, liveRows(Files.readAllLines(out)), "the cache is every table");
        assertEquals(List.of(), Files.readAllLines(dlq), "no dead letters");
    }

    /**
     * cdc.debezium.null-value=delete, a delete without a version, is refused before anything starts
     * (exit 2, the rewrite recipe named): it cannot be ordered against a row sent again after it.
     */
    @Test
    void nullValueDeletesAreRefusedBeforeTheJobStarts() throws Exception {
        Path events = Scenarios.copy("debezium-mixed.jsonl", dir);
        assertEquals(
                2,
                replay(
                        events,
                        dir.resolve("state.jsonl"),
                        "--format",
                        "debezium",
                        "--set",
                        "cdc.debezium.null-value=delete"));
    }

    /** The tables a capture's records name, SCHEMA.TABLE or DB.TABLE, in the order they first appear. */
    private static List<String> tablesOf(List<String> captured) throws IOException {
        java.util.LinkedHashSet<String> tables = new java.util.LinkedHashSet<>();
        for (String line : captured) {
            JsonNode source = JSON.readTree(line).path("value").path("source");
            if (source.has("table")) {
                String container = source.hasNonNull("schema")
                        ? source.get("schema").asText()
                        : source.get("db").asText();
                tables.add(container + "." + source.get("table").asText());
            }
        }
        return List.copyOf(tables);
    }

    /**
     * Each record of a capture as the unwrap transform writes it with delete.tombstone.handling.mode=rewrite
     * and the add.fields of docs/debezium.md#unwrap: the row (before for a delete), __deleted, and the
     * op, version and table fields of the source; null-value records dropped.
     */
    private static List<String> rewritten(List<String> captured) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : captured) {
            ObjectNode record = (ObjectNode) JSON.readTree(line);
            JsonNode value = record.get("value");
            if (value == null || value.isNull()) {
                continue; // rewrite drops the tombstones
            }
            String op = value.get("op").asText();
            JsonNode source = value.get("source");
            ObjectNode row = ((ObjectNode) value.get(op.equals("d") ? "before" : "after")).deepCopy();
            row.put("__deleted", op.equals("d") ? "true" : "false");
            row.put("__op", op);
            for (String field :
                    List.of("connector", "ts_ms", "schema", "db", "table", "sequence", "lsn", "file", "pos", "row")) {
                if (source.has(field)
                        && !(field.equals("schema")
                                && source.get("connector").asText().equals("mysql"))) {
                    row.set("__source_" + field, source.get(field));
                }
            }
            record.set("value", row);
            out.add(record.toString());
        }
        return out;
    }

    /** The table a real capture came from, by cache key (read over JDBC when it was made). */
    private static Map<String, JsonNode> capturedTable(String database) throws IOException {
        Map<String, JsonNode> table = new TreeMap<>();
        for (String line : Scenarios.lines("cdc", "captured-" + database + ".table.jsonl")) {
            JsonNode row = JSON.readTree(line);
            table.put(row.get("key").asText(), row.get("row"));
        }
        return table;
    }

    /** The live rows of a state dump, by key, payloads as JSON. */
    /**
     * Rows whose composite keys differ only in where a {@code :} falls, and one whose value ends with the
     * escape character: each its own cache entry with its own row, the keys as docs/debezium.md gives
     * them ("One key per row"). A bare join put the first two under one key, the second overwriting the
     * first, with no dead letter.
     */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void rowsWhoseKeysDifferWhereAColonFallsAreTwoEntries() throws Exception {
        Path events = dir.resolve("colons.jsonl");
        Files.write(
                events,
                List.of(
                        pairRow("x:y", "z", 1, 10),
                        pairRow("x", "y:z", 2, 20),
                        pairRow("x:y", "z", 3, 30),
                        pairRow("a\\", "b", 4, 40)));
        Path out = dir.resolve("state.jsonl");
        Path dlq = dir.resolve("dlq.jsonl");
        assertEquals(
                0,
                replay(
                        events,
                        out,
                        "--format",
                        "debezium",
                        "--dlq-out",
                        dlq.toString(),
                        "--set",
                        "cdc.debezium.key-fields=a,b"));
        Map<String, JsonNode> rows = liveRows(Files.readAllLines(out));
        assertEquals(List.of("a\\\\:b", "x:y\\:z", "x\\:y:z"), List.copyOf(rows.keySet()), rows.toString());
        assertEquals(3, rows.get("x\\:y:z").get("v").asInt(), rows.toString());
        assertEquals(2, rows.get("x:y\\:z").get("v").asInt(), rows.toString());
        assertEquals(List.of(), Files.readAllLines(dlq), "no dead letters");
    }

    /** A Debezium insert of the row (a, b, v) at SCN {@code scn}. */
    private static String pairRow(String a, String b, int v, long scn) {
        ObjectNode after = JSON.createObjectNode().put("a", a).put("b", b).put("v", v);
        ObjectNode change = JSON.createObjectNode();
        change.putNull("before");
        change.set("after", after);
        change.put("op", "c").put("ts_ms", 1_700_000_000_000L + scn);
        change.set(
                "source",
                JSON.createObjectNode()
                        .put("connector", "oracle")
                        .put("name", "crm")
                        .put("table", "PAIRS")
                        .put("scn", Long.toString(scn))
                        .put("ts_ms", 1_700_000_000_000L + scn));
        return change.toString();
    }

    private static Map<String, JsonNode> liveRows(List<String> state) throws IOException {
        Map<String, JsonNode> cached = new TreeMap<>();
        for (String line : state) {
            JsonNode entry = JSON.readTree(line);
            if (!entry.get("tombstone").asBoolean()) {
                cached.put(
                        entry.get("key").asText(),
                        JSON.readTree(entry.get("payload").asText()));
            }
        }
        return cached;
    }

    /**
     * A line whose record is larger than the topic accepts (the broker's 1 MiB default) is not lost: the
     * replay dead-letters it with its file:line and the reason, and the run ends with the other events
     * written. (It once vanished on Flink and left Samza waiting for it forever.)
     */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void aRecordTooLargeForTheTopicIsDeadLetteredAndTheRunEnds() throws Exception {
        Path events = dir.resolve("oversized.jsonl");
        String huge = "x".repeat(2 * 1024 * 1024);
        Files.write(
                events,
                List.of(
                        "{\"key\":\"small:1\",\"scn\":1,\"op\":\"UPSERT\",\"payload\":\"a\"}",
                        "{\"key\":\"huge\",\"scn\":2,\"op\":\"UPSERT\",\"payload\":\"" + huge + "\"}",
                        "{\"key\":\"small:2\",\"scn\":3,\"op\":\"UPSERT\",\"payload\":\"b\"}"));
        Path out = dir.resolve("state.jsonl");
        Path dlq = dir.resolve("dlq.jsonl");
        assertEquals(0, replay(events, out, "--dlq-out", dlq.toString()));
        List<String> deadLetters = Files.readAllLines(dlq);
        assertEquals(1, deadLetters.size(), "dead letters");
        JsonNode letter = JSON.readTree(deadLetters.get(0));
        assertEquals("RECORD_TOO_LARGE", letter.get("reason").asText());
        assertEquals("oversized.jsonl", letter.path("source").path("topic").asText());
        assertEquals(2, letter.path("source").path("offset").asLong(), "the line number");
        List<String> keys = Files.readAllLines(out).stream()
                .map(line -> line.substring(0, line.indexOf(',')))
                .toList();
        assertEquals(List.of("{\"key\":\"small:1\"", "{\"key\":\"small:2\""), keys);
    }

    /**
     * A snapshot row larger than the bootstrap topic accepts is dead-lettered by the snapshot producer
     * with its partition and row; its partition cannot verify complete, so the run ends with exit 1
     * instead of waiting for the row or saying OK.
     */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void aSnapshotRowTooLargeIsDeadLetteredAndTheIncompleteBootstrapFailsTheRun() throws Exception {
        assumeBootstraps();
        Path events = dir.resolve("live.jsonl");
        Files.write(events, List.of("{\"key\":\"live\",\"scn\":5,\"op\":\"UPSERT\",\"payload\":\"l\"}"));
        Path snapshot = dir.resolve("snapshot.jsonl");
        Files.write(
                snapshot,
                List.of(
                        "{\"snapshot\":\"too-large\",\"highWatermarks\":{\"0\":10}}",
                        "{\"key\":\"snap:1\",\"scn\":1,\"op\":\"UPSERT\",\"payload\":\"s\"}",
                        "{\"key\":\"snap:huge\",\"scn\":2,\"op\":\"UPSERT\",\"payload\":\""
                                + "y".repeat(2 * 1024 * 1024) + "\"}"));
        Path out = dir.resolve("state.jsonl");
        Path dlq = dir.resolve("dlq.jsonl");
        assertEquals(1, replay(events, out, "--snapshot", snapshot.toString(), "--dlq-out", dlq.toString()));
        List<String> deadLetters = Files.readAllLines(dlq);
        assertEquals(1, deadLetters.size(), "dead letters");
        JsonNode letter = JSON.readTree(deadLetters.get(0));
        assertEquals("RECORD_TOO_LARGE", letter.get("reason").asText());
        assertEquals("snapshot too-large", letter.path("source").path("topic").asText());
        assertTrue(Files.readString(out).contains("\"key\":\"snap:1\""), "the other rows are applied");
    }

    /**
     * With a schema registry (schema.registry.dir), an event whose schema version the registry lacks, or
     * whose payload is not valid Avro under its version, is dead-lettered with the reason on every
     * engine; valid payloads are written.
     */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void withASchemaRegistryUnknownVersionsAndInvalidPayloadsAreDeadLettered() throws Exception {
        Path registry = dir.resolve("schemas");
        Files.createDirectories(registry.resolve("profile"));
        Files.writeString(
                registry.resolve("profile").resolve("v1.avsc"),
                "{\"type\":\"record\",\"name\":\"Profile\",\"fields\":[{\"name\":\"name\",\"type\":\"string\"}]}");
        Path events = dir.resolve("schemas.jsonl");
        // Avro of {"name": "abc"}: the length 3 as a zig-zag varint (6), then the bytes
        Files.write(
                events,
                List.of(
                        "{\"table\":\"profile\",\"key\":\"valid\",\"scn\":1,\"op\":\"UPSERT\",\"schemaVersion\":1,"
                                + "\"payload\":\"\\u0006abc\"}",
                        "{\"table\":\"profile\",\"key\":\"unknown-version\",\"scn\":2,\"op\":\"UPSERT\","
                                + "\"schemaVersion\":2,\"payload\":\"\\u0006abc\"}",
                        "{\"table\":\"profile\",\"key\":\"truncated\",\"scn\":3,\"op\":\"UPSERT\",\"schemaVersion\":1,"
                                + "\"payload\":\"\\u0006ab\"}",
                        "{\"table\":\"profile\",\"key\":\"valid\",\"scn\":4,\"op\":\"DELETE\",\"schemaVersion\":1}"));
        Path out = dir.resolve("state.jsonl");
        Path dlq = dir.resolve("dlq.jsonl");
        assertEquals(0, replay(events, out, "--dlq-out", dlq.toString(), "--set", "schema.registry.dir=" + registry));
        List<String> reasons = new ArrayList<>();
        for (String line : Files.readAllLines(dlq)) {
            JsonNode letter = JSON.readTree(line);
            reasons.add(letter.get("reason").asText() + " " + letter.get("key").asText());
        }
        reasons.sort(null);
        assertEquals(List.of("INVALID_PAYLOAD truncated", "UNKNOWN_SCHEMA_VERSION unknown-version"), reasons);
        assertEquals(
                List.of("{\"key\":\"valid\",\"scn\":4,\"schemaVersion\":1,\"tombstone\":true}"),
                Files.readAllLines(out));
    }

    /**
     * The job's process (the cache updater and the bootstrapper) is killed -9 while both the change
     * stream and a snapshot are being read, and started again from its last checkpoint or commit: the
     * cache must end at the highest version of every key, as the core's does, and the snapshot must
     * still verify complete on every partition (the rows counted before the kill were kept with the
     * input positions).
     */
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    @Test
    void aJobKilledMidRunEndsAtTheNewestVersionsAndItsSnapshotComplete() throws Exception {
        JsonNode summary = replayWithFault("--kill-at", "0.6");
        if (bootstraps()) {
            // rows were taken again after the restart: the kill fell inside the snapshot, after a checkpoint in it
            assertTrue(
                    summary.get("bootstrapRows").asLong() > SNAPSHOT_ROWS,
                    "the kill did not split the snapshot: " + summary);
        }
    }

    /** Where the core, without an engine, ends on {@code events}. */
    private static List<String> coreState(Path events) throws InterruptedException {
        return CoreReplay.run(
                        ReplayInput.read(List.of(events)),
                        new InMemoryCacheStore(),
                        WriterSettings.defaults(),
                        1024 * 1024)
                .state();
    }

    /**
     * {@code --live-rate}: the change stream sent at a steady rate while the job runs ends in the same
     * state as the core's, and the staleness is measured at the store on every key's last version.
     */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void aLiveStreamEndsWhereTheCoreEndsWithItsStalenessMeasured() throws Exception {
        Path events = dir.resolve("live.jsonl");
        ChangeEventGenerator.write(events, 6000, 500, Seeds.seed());
        Path out = dir.resolve("state.jsonl");
        Path summary = dir.resolve("summary.json");
        assertEquals(0, replay(events, out, "--live-rate", "3000", "--summary-json", summary.toString()));
        List<String> core = coreState(events);
        assertEquals(core, Files.readAllLines(out), "engine vs core");
        JsonNode s = new ObjectMapper().readTree(summary.toFile());
        assertEquals(0, s.path("stalenessUnmatchedKeys").asLong(-1), s.toString());
        assertTrue(s.path("stalenessKeys").asLong() > 0, "staleness measured: " + s);
        // the figures are reported; what they are worth on this machine is a bench's (bench cdc --rate), not a test's
        for (String figure : List.of("stalenessP50Millis", "stalenessP99Millis", "stalenessP999Millis")) {
            assertTrue(s.path(figure).asLong(-1) >= 0, figure + " reported: " + s);
        }
        assertTrue(s.path("offeredEventsPerSec").asLong(-1) > 0, "the stream was offered live: " + s);
        assertTrue(s.has("caughtUp"), "whether the job kept up is reported: " + s);
    }

    /**
     * The broker is stopped and started again under the running job halfway through the change
     * stream and a snapshot: the job must reconnect by itself, the cache end at the highest version
     * of every key and the snapshot verify complete.
     */
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    @Test
    void aBrokerRestartUnderTheJobLosesNothing() throws Exception {
        replayWithFault("--broker-restart-at", "0.5");
    }

    /**
     * The same crash test on Couchbase: CouchbaseMock in a JVM of its own, started by the replay and
     * reached through the real SDK over TCP; the job writes it asynchronously, batched per key. The
     * killed job's writes in flight are lost or done; either way the restarted job ends at the oracle.
     */
    @Tag(SLOW)
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    @Test
    void onCouchbaseAJobKilledMidRunEndsAtTheNewestVersions() throws Exception {
        JsonNode summary = replayWithFault("--kill-at", "0.6", "--store", "couchbase");
        assertTrue(summary.get("eventsApplied").asLong() > 0, "nothing was written to Couchbase: " + summary);
    }

    /** The crash test into Redis: the job killed -9 with writes in flight to the server ends at the oracle. */
    @Tag(SLOW)
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    @Test
    protected void onRedisAJobKilledMidRunEndsAtTheNewestVersions() throws Exception {
        assumeRedis();
        JsonNode summary = replayWithFault("--kill-at", "0.6", "--store", "redis");
        assertTrue(summary.get("eventsApplied").asLong() > 0, "nothing was written to Redis: " + summary);
    }

    /**
     * The generated change stream (and snapshot, on an engine that bootstraps) replayed with {@code fault} at the fraction {@code at}
     * of the input: the state must be the oracle's and every partition verified; returns the summary.
     */
    private JsonNode replayWithFault(String fault, String at, String... more) throws Exception {
        Path events = generatedChanges();
        Path out = dir.resolve("state.jsonl");
        Path summary = dir.resolve("summary.json");
        List<String> args = new ArrayList<>(
                List.of(fault, at, "--checkpoint-interval", "500ms", "--summary-json", summary.toString()));
        Path snapshot = null;
        if (bootstraps()) {
            snapshot = dir.resolve("snapshot.jsonl");
            ChangeEventGenerator.writeSnapshot(snapshot, SNAPSHOT_ROWS);
            args.addAll(List.of("--snapshot", snapshot.toString()));
        }
        args.addAll(List.of(more));
        assertEquals(0, replay(events, out, args.toArray(String[]::new)), "replay cdc " + fault);
        assertEquals(
                snapshot == null ? Scenarios.expectedState(events) : Scenarios.expectedState(events, snapshot),
                Files.readAllLines(out),
                "engine after " + fault + " vs oracle");
        JsonNode json = JSON.readTree(summary.toFile());
        if (snapshot != null) {
            assertEquals(
                    3, json.get("bootstrapPartitionsComplete").asLong(), "every partition verified after " + fault);
        }
        return json;
    }

    /** 60,000 generated change events over 5,000 keys: enough to pass several checkpoints before a fault. */
    private Path generatedChanges() {
        Path events = dir.resolve("changes.jsonl");
        ChangeEventGenerator.write(events, 60_000, 5_000, Seeds.seed());
        return events;
    }

    /** Rows of the generated snapshot: over the change stream's keys and beyond. */
    private static final int SNAPSHOT_ROWS = 30_000;

    /**
     * A snapshot bootstrapped while the live stream is applied, against the same store: snapshot rows
     * older and newer than live updates, deletes on both sides of the high-watermark, live events lost
     * that only the snapshot carries. The final state is the highest version of each key.
     */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void aBootstrapRacingTheLiveStreamEndsAtTheHighestVersions() throws Exception {
        assumeBootstraps();
        Path live = Scenarios.copy("bootstrap", "live.jsonl", dir);
        Path snapshot = Scenarios.copy("bootstrap", "snapshot.jsonl", dir);
        Path out = dir.resolve("state.jsonl");
        assertEquals(0, replay(live, out, "--snapshot", snapshot.toString()));
        List<String> expected = Scenarios.expectedState(live, snapshot);
        assertTrue(!expected.equals(Scenarios.expectedState(live)), "the snapshot must matter in this scenario");
        assertTrue(expected.stream().anyMatch(l -> l.contains("\"tombstone\":true")), "deletes in the scenario");
        assertEquals(expected, Files.readAllLines(out), "state after the bootstrap and the live stream");
        assertEquals(3, engineMetrics().count("bootstrap.partitions-complete"), "every partition's share verified");
        assertEquals(0, engineMetrics().count("bootstrap.partitions-incomplete"));
        assertEquals(snapshotRows(snapshot), engineMetrics().count("bootstrap.rows"));
    }

    /** The snapshot producer dies mid-snapshot and a new one resumes from its saved progress: nothing missing, nothing wrong. */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void aSnapshotProducerKilledMidwayResumes() throws Exception {
        assumeBootstraps();
        Path live = Scenarios.copy("bootstrap", "live.jsonl", dir);
        Path snapshot = Scenarios.copy("bootstrap", "snapshot.jsonl", dir);
        Path out = dir.resolve("state.jsonl");
        assertEquals(
                0,
                replay(
                        live,
                        out,
                        "--snapshot",
                        snapshot.toString(),
                        "--snapshot-crash-after-rows",
                        "23",
                        "--set",
                        "bootstrap.chunk-rows=10"));
        assertEquals(Scenarios.expectedState(live, snapshot), Files.readAllLines(out));
        assertEquals(3, engineMetrics().count("bootstrap.partitions-complete"));
        // rows 20..22 were sent before the crash and again after it: repeats, counted once by the tracker
        assertEquals(snapshotRows(snapshot) + 3, engineMetrics().count("bootstrap.rows"));
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A dead letter with the publish time inside a bootstrap record's bytes set to 0: the one part of
     * a dead letter that differs from run to run (the rest must be identical on every engine).
     */
    private static String withoutPublishTime(String deadLetter) {
        try {
            ObjectNode letter = (ObjectNode) JSON.readTree(deadLetter);
            JsonNode base64 = letter.path("value").path("base64");
            if (!letter.path("source").path("topic").asText().equals("nearline.bootstrap") || base64.isMissingNode()) {
                return deadLetter;
            }
            Schema schema;
            try (InputStream in =
                    CdcConformanceSuite.class.getResourceAsStream("/avro/io/nearline/bootstrap/BootstrapRecord.avsc")) {
                schema = new Schema.Parser().parse(in);
            }
            GenericRecord record = new GenericDatumReader<GenericRecord>(schema)
                    .read(
                            null,
                            DecoderFactory.get()
                                    .binaryDecoder(Base64.getDecoder().decode(base64.asText()), null));
            record.put("atMillis", 0L);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
            new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
            encoder.flush();
            ((ObjectNode) letter.get("value")).put("base64", Base64.getEncoder().encodeToString(bytes.toByteArray()));
            return letter.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long snapshotRows(Path snapshot) throws IOException {
        return Files.readAllLines(snapshot).stream()
                .filter(l -> l.contains("\"key\""))
                .count();
    }
}
