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
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Debezium's logical types in JSON, read as the numbers they are. Kafka Connect's JsonConverter writes
 * a {@code DECIMAL}/{@code NUMERIC} column as the base64 of its unscaled two's-complement bytes
 * ({@code 1001} is {@code "A+k="}), with the scale in the schema; Oracle's {@code NUMBER} without a
 * precision, and PostgreSQL's {@code NUMERIC} without one, become a struct {@code {"scale": s, "value":
 * base64}} ({@code io.debezium.data.VariableScaleDecimal}). Without the schema the first cannot be told
 * from text, so it stays as it came; the struct is recognised by its shape.
 */
final class DebeziumValues {

    static final String DECIMAL = "org.apache.kafka.connect.data.Decimal";
    static final String VARIABLE_SCALE_DECIMAL = "io.debezium.data.VariableScaleDecimal";

    private DebeziumValues() {}

    /** Field name to field schema of a Connect struct schema; empty without one. */
    static Map<String, JsonNode> fieldSchemas(JsonNode structSchema) {
        Map<String, JsonNode> out = new HashMap<>();
        if (structSchema != null) {
            for (JsonNode f : structSchema.path("fields")) {
                out.put(f.path("field").asText(), f);
            }
        }
        return out;
    }

    /** The schema of the envelope's {@code before}/{@code after} row, from the value's schema. */
    static JsonNode rowSchema(JsonNode envelopeSchema, String image) {
        return envelopeSchema == null ? null : fieldSchemas(envelopeSchema).get(image);
    }

    /** {@code value} with a decimal read as a number when its schema (or shape) says it is one. */
    static JsonNode decoded(JsonNode value, JsonNode fieldSchema) {
        if (value == null || value.isNull()) {
            return value;
        }
        String logical = fieldSchema == null ? "" : fieldSchema.path("name").asText("");
        try {
            if (logical.equals(DECIMAL) && value.isTextual()) {
                int scale = fieldSchema.path("parameters").path("scale").asInt(0);
                return DecimalNode.valueOf(decimal(value.asText(), scale));
            }
            if ((logical.equals(VARIABLE_SCALE_DECIMAL) || logical.isEmpty() && isVariableScaleShape(value))
                    && value.path("value").isTextual()) {
                return DecimalNode.valueOf(
                        decimal(value.get("value").asText(), value.path("scale").asInt(0)));
            }
        } catch (IllegalArgumentException notBase64) {
            return value; // not what the schema says: keep the text
        }
        return value;
    }

    /**
     * The row with every decimal field decoded, in place (the decoder owns the tree it parsed; a copy
     * per event would be work on every record for rows that mostly have no decimal).
     *
     * @param schemas field name to field schema of the row, from {@link #fieldSchemas}
     */
    static JsonNode decodedRow(JsonNode row, Map<String, JsonNode> schemas) {
        if (row == null || !row.isObject()) {
            return row;
        }
        ObjectNode out = (ObjectNode) row;
        for (Iterator<String> names = row.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            JsonNode d = decoded(row.get(name), schemas.get(name));
            if (d != row.get(name)) {
                out.set(name, d); // a value replaced, not a field added: the iteration goes on
            }
        }
        return out;
    }

    /** A key's text: a decimal as its plain digits ({@code 1001}, {@code 12.50}), anything else as its text. */
    static String keyText(JsonNode v) {
        return v.isBigDecimal() ? v.decimalValue().toPlainString() : v.asText();
    }

    private static boolean isVariableScaleShape(JsonNode v) {
        return v.isObject() && v.size() == 2 && v.path("scale").isInt() && v.has("value");
    }

    private static BigDecimal decimal(String base64, int scale) {
        byte[] unscaled = Base64.getDecoder().decode(base64);
        if (unscaled.length == 0) {
            throw new IllegalArgumentException("no bytes");
        }
        return new BigDecimal(new BigInteger(unscaled), scale);
    }
}
