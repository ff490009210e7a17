package io.nearline.common.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debezium's JSON change events (Kafka Connect's JsonConverter, with or without its
 * {@code schema}/{@code payload} wrapper) as change events: op {@code c}, {@code u} and {@code r}
 * upsert the {@code after} image (as compact JSON), {@code d} writes a tombstone. The cache key is
 * {@code keyPrefix} + the key fields' values joined by {@code :}, taken from the record key, or from
 * the row image when the record has none. The version comes from the {@code source} block (see
 * {@link #versionField}). The null-value record Debezium writes after each delete is skipped: the
 * delete before it already wrote the tombstone, with a version.
 *
 * @param keyFields    fields of the record key (or the row image) that make the cache key
 * @param keyPrefix    put before the joined key values (may be empty)
 * @param versionField {@value #AUTO} (by {@code source.connector}: Oracle {@code source.scn}, PostgreSQL
 *     {@code source.lsn}, MySQL the binlog position), {@value #MYSQL_BINLOG}, or a dotted path into the
 *     event such as {@code source.commit_lsn}. A numeric string counts as a number.
 */
public record DebeziumDecoder(List<String> keyFields, String keyPrefix, String versionField) implements ChangeDecoder {

    public static final String AUTO = "auto";
    /** MySQL's binlog position: file number, position in the file and row in the event, packed in 20 + 32 + 11 bits. */
    public static final String MYSQL_BINLOG = "mysql-binlog";

    private static final long serialVersionUID = 1L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern BINLOG_FILE = Pattern.compile(".*\\.(\\d+)");

    public DebeziumDecoder {
        keyFields = List.copyOf(keyFields);
        if (keyFields.isEmpty()) {
            throw new IllegalArgumentException("no key fields");
        }
    }

    @Override
    public Decoded decode(byte[] key, byte[] value) {
        if (value == null || value.length == 0) {
            return Decoded.skip("Debezium tombstone (a record without a value) after a delete");
        }
        JsonNode envelope;
        try {
            envelope = unwrap(JSON.readTree(value));
        } catch (IOException e) {
            return Decoded.rejected(
                    Rejection.Reason.UNDECODABLE, "not JSON: " + ChangeEventText.firstLine(e.getMessage()));
        }
        if (envelope == null || envelope.isNull()) {
            return Decoded.skip("Debezium tombstone (a null payload) after a delete");
        }
        if (!envelope.isObject() || !envelope.hasNonNull("op")) {
            return Decoded.rejected(
                    Rejection.Reason.UNDECODABLE, "not a Debezium change event: a JSON object with \"op\" expected");
        }
        String opCode = envelope.get("op").asText();
        Op op =
                switch (opCode) {
                    case "c", "u", "r" -> Op.UPSERT;
                    case "d" -> Op.DELETE;
                    default -> null;
                };
        if (op == null) {
            return Decoded.rejected(
                    Rejection.Reason.UNKNOWN_OP,
                    "Debezium op '" + opCode + "' is not applied to the cache (c, u, r and d are)");
        }
        JsonNode image = envelope.get(op == Op.UPSERT ? "after" : "before");
        if (op == Op.UPSERT && (image == null || !image.isObject())) {
            return Decoded.rejected(
                    Rejection.Reason.MISSING_PAYLOAD, "Debezium op '" + opCode + "' without an \"after\" image");
        }
        Object cacheKey = cacheKey(key, image);
        if (cacheKey instanceof Rejection r) {
            return new Decoded(null, r, null);
        }
        JsonNode source = envelope.path("source");
        Object version = version(envelope, source);
        if (version instanceof Rejection r) {
            return new Decoded(null, r, null);
        }
        return Decoded.ok(ChangeEvent.newBuilder()
                .setTable(source.path("table").asText(""))
                .setKey((String) cacheKey)
                .setPartition(0)
                .setScn((Long) version)
                .setOp(op)
                .setSchemaVersion(0)
                .setPayload(op == Op.UPSERT ? ByteBuffer.wrap(image.toString().getBytes(StandardCharsets.UTF_8)) : null)
                .setCommitTimeMillis(
                        source.path("ts_ms").asLong(envelope.path("ts_ms").asLong(0)))
                .build());
    }

    /** The cache key as a String, or a Rejection. Each field is looked up in the record key, then in the row image. */
    private Object cacheKey(byte[] key, JsonNode image) {
        JsonNode recordKey = null;
        if (key != null && key.length > 0) {
            try {
                recordKey = unwrap(JSON.readTree(key));
            } catch (IOException e) {
                return Rejection.of(
                        Rejection.Reason.MISSING_KEY,
                        "the record key is not JSON: " + ChangeEventText.firstLine(e.getMessage()));
            }
            if (recordKey != null && recordKey.isValueNode() && !recordKey.isNull() && keyFields.size() == 1) {
                return keyPrefix + recordKey.asText(); // a plain key, not a struct
            }
        }
        StringBuilder out = new StringBuilder(keyPrefix);
        for (int i = 0; i < keyFields.size(); i++) {
            JsonNode v = recordKey == null ? null : recordKey.get(keyFields.get(i));
            if ((v == null || v.isNull()) && image != null) {
                v = image.get(keyFields.get(i));
            }
            if (v == null || v.isNull() || !v.isValueNode()) {
                return Rejection.of(
                        Rejection.Reason.MISSING_KEY,
                        "no value for key field '" + keyFields.get(i) + "' in the record key or the row image"
                                + " (cdc.debezium.key-fields = " + String.join(",", keyFields) + ")");
            }
            out.append(i == 0 ? "" : ":").append(v.asText());
        }
        return out.toString();
    }

    /** The version as a Long, or a Rejection. */
    private Object version(JsonNode envelope, JsonNode source) {
        String field = versionField;
        if (field.equals(AUTO)) {
            String connector = source.path("connector").asText("");
            field = switch (connector) {
                case "oracle" -> "source.scn";
                case "postgresql" -> "source.lsn";
                case "mysql" -> MYSQL_BINLOG;
                default -> null;
            };
            if (field == null) {
                return Rejection.of(
                        Rejection.Reason.BAD_SCN,
                        (connector.isEmpty()
                                        ? "no source.connector"
                                        : "connector '" + connector + "' has no default version")
                                + ": set cdc.debezium.version-field to the source field that orders its changes");
            }
        }
        if (field.equals(MYSQL_BINLOG)) {
            return binlogPosition(source);
        }
        JsonNode v = envelope;
        for (String part : field.split("\\.")) {
            v = v.path(part);
        }
        Long n = wholeNumber(v);
        return n != null
                ? n
                : Rejection.of(
                        Rejection.Reason.BAD_SCN, field + " must be a whole number (the version), got " + shown(v));
    }

    private static Object binlogPosition(JsonNode source) {
        Matcher file = BINLOG_FILE.matcher(source.path("file").asText(""));
        Long pos = wholeNumber(source.path("pos"));
        Long row = source.has("row") ? wholeNumber(source.get("row")) : Long.valueOf(0);
        if (!file.matches() || pos == null || row == null) {
            return Rejection.of(
                    Rejection.Reason.BAD_SCN,
                    "a MySQL binlog position needs source.file (name.NNNNNN) and source.pos, got file "
                            + shown(source.path("file")) + ", pos " + shown(source.path("pos")));
        }
        long fileNumber = Long.parseLong(file.group(1));
        if (fileNumber >= 1L << 20 || pos >= 1L << 32 || row >= 1L << 11) {
            return Rejection.of(
                    Rejection.Reason.BAD_SCN,
                    "binlog position " + source.path("file").asText() + ":" + pos + " row " + row
                            + " does not fit a version (file number < 2^20, pos < 2^32, row < 2^11)");
        }
        return fileNumber << 43 | pos << 11 | row;
    }

    private static Long wholeNumber(JsonNode v) {
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            return v.asLong();
        }
        if (v.isTextual() && v.asText().matches("-?\\d{1,30}")) {
            BigInteger b = new BigInteger(v.asText());
            return b.bitLength() < 64 ? b.longValue() : null;
        }
        return null;
    }

    /** The event inside Kafka Connect's {"schema","payload"} wrapper, or the node itself. */
    static JsonNode unwrap(JsonNode node) {
        if (node != null && node.isObject() && node.has("schema") && node.has("payload") && node.size() == 2) {
            return node.get("payload");
        }
        return node;
    }

    private static String shown(JsonNode v) {
        return v.isMissingNode() ? "nothing" : v.toString();
    }
}
