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
import io.nearline.common.version.Version;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Debezium's JSON change events (Kafka Connect's JsonConverter, with or without its
 * {@code schema}/{@code payload} wrapper) as change events: op {@code c}, {@code u} and {@code r}
 * upsert the {@code after} image (as compact JSON), {@code d} writes a tombstone. The output of
 * Debezium's {@code ExtractNewRecordState} ("unwrap") transform is read too: the row itself, with the
 * {@code __op}, {@code __deleted}, {@code __lsn} and {@code __source_*} fields the transform adds.
 *
 * <p>The cache key is {@code keyPrefix} + the key fields' values joined by {@code :}, taken from the
 * record key, or from the row image when the record has none or it is not JSON. Decimal columns (base64
 * in Debezium's JSON) are read as numbers, by the schema where the record carries it. The version is in
 * the source's commit order ({@link DebeziumVersion}). The null-value record Debezium writes after each
 * delete is skipped: the delete before it already wrote the tombstone, with a version; with
 * {@link NullValue#DELETE} it is a delete itself (the unwrap transform's deletes have nothing else).
 *
 * <p>An after image with columns Debezium did not capture is passed on as it is: the ordered write
 * completes it from the cached row ({@link PartialImages}). Refused with a reason: a {@code TRUNCATE},
 * which names no keys, {@code TRUNCATE}; any other op, {@code UNKNOWN_OP}.
 *
 * @param keyFields    fields of the record key (or the row image) that make the cache key
 * @param keyPrefix    put before the joined key values (may be empty)
 * @param versionField {@value #AUTO} (by {@code source.connector}, or the fields of the source block when
 *     it names none: see {@link DebeziumVersion}), {@value #MYSQL_BINLOG}, or a dotted path into the
 *     event such as {@code source.commit_lsn}. A numeric string counts as a number.
 * @param nullValue    what a record with a null value is: skipped, or a delete ({@link NullValue})
 */
public record DebeziumDecoder(List<String> keyFields, String keyPrefix, String versionField, NullValue nullValue)
        implements ChangeDecoder {

    /** What a record with a null value is ({@code cdc.debezium.null-value}). */
    public enum NullValue {
        /** Debezium's tombstone after a delete, which already wrote a versioned tombstone: nothing. */
        SKIP,
        /**
         * A delete (the unwrap transform's default delete handling): a tombstone of the record key's
         * cache key, versioned just above what the cache holds when it is written ({@link Version#ABOVE_HELD}).
         */
        DELETE
    }

    public static final String AUTO = "auto";
    /** MySQL's binlog position: file number, position in the file and row in the event, packed in 20 + 32 + 11 bits. */
    public static final String MYSQL_BINLOG = "mysql-binlog";

    private static final long serialVersionUID = 1L;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Fields the unwrap transform adds to the row; {@code __source_x} becomes {@code source.x}. */
    private static final String ADDED = "__";

    /** Null values skipped (the default). */
    public DebeziumDecoder(List<String> keyFields, String keyPrefix, String versionField) {
        this(keyFields, keyPrefix, versionField, NullValue.SKIP);
    }

    public DebeziumDecoder {
        keyFields = List.copyOf(keyFields);
        if (keyFields.isEmpty()) {
            throw new IllegalArgumentException("no key fields");
        }
    }

    @Override
    public Decoded decode(byte[] key, byte[] value) {
        if (value == null || value.length == 0) {
            return nullValue(key, "a record without a value");
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
            return nullValue(key, "a null payload");
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

    /** A record with no value: skipped, or a delete of its key versioned above what is cached ({@link NullValue}). */
    private Decoded nullValue(byte[] key, String what) {
        if (nullValue == NullValue.SKIP) {
            return Decoded.skip("Debezium tombstone (" + what + ") after a delete");
        }
        Object cacheKey = cacheKey(key, null, Map.of());
        if (cacheKey instanceof Rejection r) {
            return new Decoded(
                    null,
                    Rejection.of(
                            r.reason(), "a delete without a value (cdc.debezium.null-value=delete): " + r.detail()),
                    null);
        }
        return Decoded.ok(ChangeEvent.newBuilder()
                .setTable("")
                .setKey((String) cacheKey)
                .setPartition(0)
                .setScn(Version.ABOVE_HELD.scn().value())
                .setSeq(Version.ABOVE_HELD.seq())
                .setOp(Op.DELETE)
                .setSchemaVersion(0)
                .setPayload(null)
                .setCommitTimeMillis(0)
                .build());
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
        Object cacheKey = cacheKey(key, image, fieldSchemas);
        if (cacheKey instanceof Rejection r) {
            return new Decoded(null, r, null);
        }
        Object version = DebeziumVersion.of(versionField, opCode.equals("r"), envelope, source);
        if (version instanceof Rejection r) {
            return new Decoded(null, r, null);
        }
        DebeziumVersion.Position position = (DebeziumVersion.Position) version;
        return Decoded.ok(ChangeEvent.newBuilder()
                .setTable(source.path("table").asText(""))
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
     * The cache key of a row image (column name to value, numbers as numbers), by the same rule as a
     * change event's: what a bootstrap read from the database keys its rows by. Throws
     * IllegalArgumentException naming the key field a row has no value for.
     */
    public String cacheKeyOf(JsonNode image) {
        Object key = cacheKey(null, image, Map.of());
        if (key instanceof Rejection r) {
            throw new IllegalArgumentException(r.detail());
        }
        return (String) key;
    }

    /**
     * The cache key as a String, or a Rejection. Each field is looked up in the record key, then in the
     * row image. A record key that is not JSON (a string converter's) is left aside for the row image.
     */
    private Object cacheKey(byte[] key, JsonNode image, Map<String, JsonNode> rowFieldSchemas) {
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
            if (recordKey != null && recordKey.isValueNode() && !recordKey.isNull() && keyFields.size() == 1) {
                return keyPrefix + recordKey.asText(); // a plain key, not a struct
            }
        }
        StringBuilder out = new StringBuilder(keyPrefix);
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
                                + " (cdc.debezium.key-fields = " + String.join(",", keyFields) + ")");
            }
            out.append(i == 0 ? "" : ":").append(DebeziumValues.keyText(v));
        }
        return out.toString();
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
            } else if (name.equals(ADDED + "lsn") || name.equals(ADDED + "table")) {
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
