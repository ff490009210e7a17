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
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The JSON-lines text form of change events used by the tools (docs/semantics.md), one object per line:
 * {@code {"table","key","partition","scn","op":"UPSERT|DELETE","schemaVersion","payload"}}.
 * {@code payload} is a string stored as its UTF-8 bytes, absent for deletes; {@code commitTimeMillis}
 * is optional. A line that cannot become a ChangeEvent at all is rejected here; one that can but
 * breaks the rules (an empty key, a negative SCN) is converted and left to {@link ChangeEventValidator},
 * so that the job rejects it exactly as it would reject the same event from a producer.
 */
public final class ChangeEventText {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ChangeEventText() {}

    public static Decoded parse(String line) {
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (Exception e) {
            return Decoded.rejected(Rejection.Reason.UNDECODABLE, "not JSON: " + firstLine(e.getMessage()));
        }
        if (node == null || !node.isObject()) {
            return Decoded.rejected(Rejection.Reason.UNDECODABLE, "not a JSON object");
        }
        JsonNode key = node.get("key");
        if (key == null || key.isNull() || !key.isValueNode()) {
            return Decoded.rejected(Rejection.Reason.MISSING_KEY, "no \"key\"");
        }
        JsonNode scn = node.get("scn");
        if (scn == null || !scn.canConvertToLong() || !(scn.isIntegralNumber() || isIntegralText(scn))) {
            return Decoded.rejected(Rejection.Reason.BAD_SCN, "\"scn\" must be a whole number, got " + scn);
        }
        Op op;
        try {
            op = Op.valueOf(text(node, "op", ""));
        } catch (IllegalArgumentException e) {
            return Decoded.rejected(
                    Rejection.Reason.UNKNOWN_OP, "\"op\" must be UPSERT or DELETE, got " + node.get("op"));
        }
        JsonNode partition = node.get("partition");
        JsonNode schema = node.get("schemaVersion");
        if ((partition != null && !partition.canConvertToInt()) || (schema != null && !schema.canConvertToInt())) {
            return Decoded.rejected(
                    Rejection.Reason.UNDECODABLE, "\"partition\" and \"schemaVersion\" must be whole numbers");
        }
        JsonNode payload = node.get("payload");
        ChangeEvent event = ChangeEvent.newBuilder()
                .setTable(text(node, "table", ""))
                .setKey(key.asText())
                .setPartition(partition == null ? 0 : partition.asInt())
                .setScn(scn.asLong())
                .setOp(op)
                .setSchemaVersion(schema == null ? 0 : schema.asInt())
                .setPayload(
                        payload == null || payload.isNull() || op == Op.DELETE
                                ? null
                                : ByteBuffer.wrap(payload.asText().getBytes(StandardCharsets.UTF_8)))
                .setCommitTimeMillis(node.path("commitTimeMillis").asLong(0))
                .build();
        return Decoded.ok(event);
    }

    /** The text form of {@code event} (payload decoded as UTF-8). */
    public static String format(ChangeEvent event) {
        ObjectNode node = JSON.createObjectNode();
        node.put("table", event.getTable());
        node.put("key", event.getKey());
        node.put("partition", event.getPartition());
        node.put("scn", event.getScn());
        node.put("op", event.getOp().name());
        node.put("schemaVersion", event.getSchemaVersion());
        if (event.getPayload() != null) {
            ByteBuffer b = event.getPayload().duplicate();
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            node.put("payload", new String(bytes, StandardCharsets.UTF_8));
        }
        if (event.getCommitTimeMillis() != 0) {
            node.put("commitTimeMillis", event.getCommitTimeMillis());
        }
        return node.toString();
    }

    private static String text(JsonNode node, String field, String missing) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? missing : v.asText();
    }

    private static boolean isIntegralText(JsonNode n) {
        return n.isTextual() && n.asText().matches("-?\\d+");
    }

    static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
