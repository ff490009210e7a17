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
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Debezium records in a JSON-lines file, one per line: either {@code {"key": K, "value": V}} (the
 * Kafka record; {@code V} may be {@code null}, a tombstone) or the change event's envelope alone, whose
 * record key is then made of the decoder's key fields of its table ({@code id} where none is named) read
 * from the row image (as Debezium's key would
 * be: one key's records share a partition).
 */
public final class DebeziumText {

    /** A Kafka record's key and value as they go onto the CDC topic; either may be null. */
    public record KafkaRecord(byte[] key, byte[] value) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private DebeziumText() {}

    /** The record of {@code line}, or null when the line is not a JSON object (the tool dead-letters it). */
    public static KafkaRecord record(String line, DebeziumDecoder decoder) {
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (Exception notJson) {
            return null;
        }
        if (node == null || !node.isObject()) {
            return null;
        }
        if (node.size() == 2 && node.has("key") && node.has("value")) {
            return new KafkaRecord(bytes(node.get("key")), bytes(node.get("value")));
        }
        JsonNode envelope = DebeziumDecoder.unwrap(node);
        JsonNode image = envelope.path("d".equals(envelope.path("op").asText()) ? "before" : "after");
        ObjectNode key = JSON.createObjectNode();
        List<String> fields = decoder.keys().keyFieldsOf(DebeziumDecoder.tableOf(envelope.path("source")));
        for (String field : fields.isEmpty() ? List.of("id") : fields) {
            if (image.hasNonNull(field)) {
                key.set(field, image.get(field));
            }
        }
        return new KafkaRecord(key.isEmpty() ? null : bytes(key), line.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] bytes(JsonNode node) {
        return node == null || node.isNull() ? null : node.toString().getBytes(StandardCharsets.UTF_8);
    }
}
