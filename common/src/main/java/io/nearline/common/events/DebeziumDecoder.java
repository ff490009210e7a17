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
package io.nearline.common.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.cache.RowKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Debezium's JSON change events (Kafka Connect's JsonConverter, with or without its
 * {@code schema}/{@code payload} wrapper) as change events: op {@code c}, {@code u} and {@code r}
 * upsert the {@code after} image (as compact JSON), {@code d} writes a tombstone. The output of
 * Debezium's {@code ExtractNewRecordState} ("unwrap") transform is read too: the row itself, with the
 * {@code __op}, {@code __deleted}, {@code __lsn} and {@code __source_*} fields the transform adds.
 *
 * <p>The cache key follows {@link DebeziumKeys}: the key fields' values joined by {@code :}, taken from
 * the record key, or from the row image when the record has none or it is not JSON; a change of a table
 * the keys do not take is refused as {@code UNKNOWN_TABLE}. Decimal columns (base64 in Debezium's JSON)
 * are read as numbers, by the schema where the record carries it. The version is in the source's commit
 * order ({@link DebeziumVersion}). A record with a null value (Debezium's tombstone after a delete, or
 * the unwrap transform's delete, which has no version) is skipped: a delete without a version cannot be
 * ordered against a row sent again after it (docs/debezium.md#unwrap).
 *
 * <p>An after image with columns Debezium did not capture is passed on as it is: the ordered write
 * completes it from the cached row ({@link PartialImages}). Refused with a reason: a {@code TRUNCATE},
 * which names no keys, {@code TRUNCATE}; any other op, {@code UNKNOWN_OP}.
 *
 * @param keys         the tables taken and how their rows are keyed
 * @param versionField {@value #AUTO} (by {@code source.connector}, or the fields of the source block when
 *     it names none: see {@link DebeziumVersion}), {@value #MYSQL_BINLOG}, or a dotted path into the
 *     event such as {@code source.commit_lsn}. A numeric string counts as a number.
 */
public record DebeziumDecoder(DebeziumKeys keys, String versionField) implements ChangeDecoder {

    public static final String AUTO = "auto";
    /** MySQL's binlog position: file number, position in the file and row in the event, packed in 20 + 32 + 11 bits. */
    public static final String MYSQL_BINLOG = "mysql-binlog";

    private static final long serialVersionUID = 1L;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Fields the unwrap transform adds to the row; {@code __source_x} becomes {@code source.x}. */
    private static final String ADDED = "__";
    /** Source fields {@code add.fields} may name without {@code source.}: {@code __lsn} is {@code source.lsn}. */
    private static final Set<String> SOURCE_FIELDS =
            Set.of("lsn", "table", "schema", "db", "connector", "sequence", "file", "pos", "row", "scn", "commit_scn");
    /** Key fields where nothing else names them and the record key is not JSON: the rule before tables. */
    private static final List<String> FALLBACK_KEY_FIELDS = List.of("id");

    /** One key rule for every table: {@code keyFields} (empty: the record key's) after {@code keyPrefix}. */
    public DebeziumDecoder(List<String> keyFields, String keyPrefix, String versionField) {
        this(DebeziumKeys.of(keyFields, keyPrefix), versionField);
    }

    @Override
    public String tableOf(byte[] key, byte[] value) {
        if (value == null || value.length == 0) {
            return "";
        }
        try {
            return tableOfValue(JSON.readTree(value));
        } catch (IOException | RuntimeException unreadable) {
            return "";
        }
    }

    @Override
    public Decoded decode(byte[] key, byte[] value) {
        if (value == null || value.length == 0) {
            return nullValue("a record without a value");
        }
        JsonNode root;
        try {
            root = JSON.readTree(value);
        } catch (IOException e) {
            return Decoded.rejected(
                    Rejection.Reason.UNDECODABLE, "not JSON: " + ChangeEventText.firstLine(e.getMessage()));
        }
        JsonNode envelope = unwrap(root);
        if (envelope == null || envelope.isNull()) {
            return nullValue("a null payload");
        }
        if (!envelope.isObject()) {
            return Decoded.rejected(
                    Rejection.Reason.UNDECODABLE, "not a Debezium change event: a JSON object expected");
        }
        JsonNode schema = envelope == root ? null : root.get("schema");
        if (!envelope.has("op") && !envelope.has("after") && !envelope.has("before")) {
            if (!envelope.has(ADDED + "op") && !envelope.has(ADDED + "deleted")) {
                return Decoded.rejected(
                        Rejection.Reason.UNDECODABLE,
                        "not a Debezium change event: neither an envelope (\"op\", \"before\", \"after\") nor a row "
                                + "from the unwrap transform with the fields it adds (\"__op\" or \"__deleted\", "
                                + "\"__source_*\"; docs/debezium.md#unwrap)");
            }
            return change(key, fromFlattened((ObjectNode) envelope), schema);
        }
        if (!envelope.hasNonNull("op")) {
            return Decoded.rejected(
                    Rejection.Reason.UNDECODABLE, "not a Debezium change event: a JSON object with \"op\" expected");
        }
        String image = envelope.get("op").asText().equals("d") ? "before" : "after";
        return change(key, envelope, DebeziumValues.rowSchema(schema, image));
    }

    /**
     * A record with no value: skipped. Debezium's tombstone follows a delete that already wrote a
     * versioned tombstone; the unwrap transform's null-value delete has no version to order it by, and
     * {@code cdc.debezium.null-value=delete} is refused before a job starts.
     */
    private static Decoded nullValue(String what) {
        return Decoded.skip("Debezium tombstone (" + what + ") after a delete");
    }

    /** The change of an envelope whose row image has the schema {@code rowSchema} (null: none given). */
    private Decoded change(byte[] key, JsonNode envelope, JsonNode rowSchema) {
        String opCode = envelope.get("op").asText();
        JsonNode source = envelope.path("source");
        Op op =
                switch (opCode) {
                    case "c", "u", "r" -> Op.UPSERT;
                    case "d" -> Op.DELETE;
                    default -> null;
                };
        if (op == null) {
            return opCode.equals("t")
                    ? Decoded.rejected(
                            Rejection.Reason.TRUNCATE,
                            "TRUNCATE of table " + source.path("table").asText("?") + " names no keys: the cache "
                                    + "keeps that table's entries until their TTL ends them (docs/debezium.md#truncate)")
                    : Decoded.rejected(
                            Rejection.Reason.UNKNOWN_OP,
                            "Debezium op '" + opCode + "' is not applied to the cache (c, u, r and d are)");
        }
        Map<String, JsonNode> fieldSchemas = DebeziumValues.fieldSchemas(rowSchema);
        JsonNode image = DebeziumValues.decodedRow(envelope.get(op == Op.UPSERT ? "after" : "before"), fieldSchemas);
        Rejection unusable = op == Op.UPSERT ? unusableAfterImage(opCode, image) : null;
        if (unusable != null) {
            return new Decoded(null, unusable, null);
        }
        String table = tableOf(source);
        if (!keys.takes(table)) {
            return Decoded.rejected(
                    Rejection.Reason.UNKNOWN_TABLE,
                    (table.isEmpty()
                                    ? "a change that names no table (the unwrap transform's add.fields needs "
                                            + "source.schema or source.db, and source.table)"
                                    : "a change of table " + table)
                            + ", which cdc.debezium.tables (" + keys.listed() + ") does not list");
        }
        Object cacheKey = cacheKey(key, table, image, fieldSchemas);
        if (cacheKey instanceof Rejection r) {
            return new Decoded(null, r, null);
        }
        Object version = DebeziumVersion.of(versionField, DebeziumVersion.Kind.of(opCode, source), envelope, source);
        if (version instanceof Rejection r) {
            return new Decoded(null, r, null);
        }
        DebeziumVersion.Position position = (DebeziumVersion.Position) version;
        return Decoded.ok(ChangeEvent.newBuilder()
                .setTable(table)
                .setKey((String) cacheKey)
                .setPartition(0)
                .setScn(position.scn())
                .setSeq(position.seq())
                .setOp(op)
                .setSchemaVersion(0)
                .setPayload(op == Op.UPSERT ? ByteBuffer.wrap(image.toString().getBytes(StandardCharsets.UTF_8)) : null)
                .setCommitTimeMillis(
                        source.path("ts_ms").asLong(envelope.path("ts_ms").asLong(0)))
                .build());
    }

    /** Why an upsert's {@code after} image cannot be stored, or null when it can. */
    private static Rejection unusableAfterImage(String opCode, JsonNode image) {
        if (image == null || !image.isObject()) {
            return Rejection.of(
                    Rejection.Reason.MISSING_PAYLOAD, "Debezium op '" + opCode + "' without an \"after\" image");
        }
        return null; // uncaptured columns (PartialImages) are completed, or refused, by the ordered write
    }

    /**
     * The cache key of a row of {@code table} (column name to value, numbers as numbers), by the same
     * rule as a change event's: what a bootstrap read from the database keys its rows by. Throws
     * IllegalArgumentException naming the key field a row has no value for.
     */
    public String cacheKeyOf(String table, JsonNode image) {
        Object key = cacheKey(null, table, image, Map.of());
        if (key instanceof Rejection r) {
            throw new IllegalArgumentException(r.detail());
        }
        return (String) key;
    }

    /**
     * A change's table as the settings name it: {@code SCHEMA.TABLE} where the source block has a schema,
     * else {@code DB.TABLE}; empty where it names no table.
     */
    public static String tableOf(JsonNode source) {
        String table = source.path("table").asText("");
        String schema = source.path("schema").asText("");
        String container = schema.isEmpty() ? source.path("db").asText("") : schema;
        return table.isEmpty() || container.isEmpty() ? table : container + "." + table;
    }

    /** The table a record's value names, an envelope or the unwrap transform's row; empty where it names none. */
    public static String tableOfValue(JsonNode value) {
        JsonNode envelope = unwrap(value);
        if (envelope == null || !envelope.isObject()) {
            return "";
        }
        boolean flattened = !envelope.has("op") && !envelope.has("after") && !envelope.has("before");
        return tableOf((flattened ? fromFlattened((ObjectNode) envelope) : envelope).path("source"));
    }

    /**
     * The cache key as a String, or a Rejection. Each field is looked up in the record key, then in the
     * row image. A record key that is not JSON (a string converter's) is left aside for the row image.
     */
    private Object cacheKey(byte[] key, String table, JsonNode image, Map<String, JsonNode> rowFieldSchemas) {
        JsonNode recordKey = null;
        Map<String, JsonNode> keyFieldSchemas = Map.of();
        if (key != null && key.length > 0) {
            try {
                JsonNode root = JSON.readTree(key);
                recordKey = unwrap(root);
                keyFieldSchemas = recordKey == root ? Map.of() : DebeziumValues.fieldSchemas(root.get("schema"));
            } catch (IOException notJson) {
                recordKey = null;
            }
        }
        String prefix = keys.prefixOf(table);
        List<String> keyFields = keyFieldsOf(table, recordKey);
        boolean named = !keys.keyFieldsOf(table).isEmpty(); // key fields the settings name win over the record key
        if (!named && recordKey != null && recordKey.isValueNode() && !recordKey.isNull()) {
            return RowKey.of(prefix, List.of(recordKey.asText())); // a plain key, not a struct
        }
        List<String> values = new ArrayList<>(keyFields.size());
        for (int i = 0; i < keyFields.size(); i++) {
            String field = keyFields.get(i);
            JsonNode v = recordKey == null ? null : recordKey.get(field);
            if (v != null && !v.isNull()) {
                v = DebeziumValues.decoded(v, keyFieldSchemas.getOrDefault(field, rowFieldSchemas.get(field)));
            } else if (image != null) {
                v = image.get(field);
            }
            if (v == null || v.isNull() || !v.isValueNode()) {
                return Rejection.of(
                        Rejection.Reason.MISSING_KEY,
                        "no value for key field '" + field + "' in the record key or the row image"
                                + (table.isEmpty() ? "" : " (table " + table + ")")
                                + " (key fields " + String.join(",", keyFields) + ")");
            }
            values.add(DebeziumValues.keyText(v));
        }
        return RowKey.of(prefix, values);
    }

    /**
     * The key fields of a change of {@code table}: as the settings name them, else the record key's own
     * fields in their order, else {@code id} (a record key that is not JSON, or none: the rule before
     * tables, read from the row image).
     */
    private List<String> keyFieldsOf(String table, JsonNode recordKey) {
        List<String> named = keys.keyFieldsOf(table);
        if (!named.isEmpty()) {
            return named;
        }
        if (recordKey != null && recordKey.isObject() && !recordKey.isEmpty()) {
            List<String> own = new ArrayList<>();
            recordKey.fieldNames().forEachRemaining(own::add);
            return own;
        }
        boolean plain = recordKey != null && recordKey.isValueNode() && !recordKey.isNull();
        return plain ? List.of() : FALLBACK_KEY_FIELDS;
    }

    /**
     * The unwrap transform's row as an envelope: {@code __op} (or {@code __deleted}) gives the op, the
     * added {@code __source_*} and {@code __lsn} fields the source block, the other fields the image.
     */
    private static ObjectNode fromFlattened(ObjectNode row) {
        ObjectNode image = JSON.createObjectNode();
        ObjectNode source = JSON.createObjectNode();
        // fieldNames(), not properties(): a Samza JVM runs this with an older Jackson
        for (Iterator<String> names = row.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (name.startsWith(ADDED + "source_")) {
                source.set(name.substring((ADDED + "source_").length()), row.get(name));
            } else if (name.startsWith(ADDED) && SOURCE_FIELDS.contains(name.substring(ADDED.length()))) {
                source.set(name.substring(ADDED.length()), row.get(name));
            } else if (!name.startsWith(ADDED)) {
                image.set(name, row.get(name));
            }
        }
        boolean deleted = row.path(ADDED + "deleted").asText("false").equals("true");
        String op = deleted ? "d" : row.path(ADDED + "op").asText("u");
        ObjectNode envelope = JSON.createObjectNode();
        envelope.put("op", op);
        envelope.set(op.equals("d") ? "before" : "after", image);
        envelope.set("source", source);
        if (row.has(ADDED + "ts_ms")) {
            envelope.set("ts_ms", row.get(ADDED + "ts_ms"));
        }
        return envelope;
    }

    /** The event inside Kafka Connect's {"schema","payload"} wrapper, or the node itself. */
    public static JsonNode unwrap(JsonNode node) {
        if (node != null && node.isObject() && node.has("schema") && node.has("payload") && node.size() == 2) {
            return node.get("payload");
        }
        return node;
    }
}
