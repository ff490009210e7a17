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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;

/**
 * Row images with columns Debezium did not capture. Where a column's value is not in the change (an
 * unchanged TOAST value in PostgreSQL without {@code REPLICA IDENTITY FULL}, an unchanged LOB in Oracle),
 * Debezium writes a placeholder instead: {@value #PLACEHOLDER}, its base64 for a bytes column, an array
 * of it for an array column. Stored as it is, such a row would replace the real value with the
 * placeholder. The SCN-ordered write completes it from the row the cache holds, inside the write, and
 * refuses it ({@code PARTIAL_IMAGE}) where there is none to complete it from.
 */
public final class PartialImages {

    /** What Debezium writes for a column value it did not capture ({@code unavailable.value.placeholder}). */
    public static final String PLACEHOLDER = "__debezium_unavailable_value";

    private static final String PLACEHOLDER_BASE64 =
            Base64.getEncoder().encodeToString(PLACEHOLDER.getBytes(StandardCharsets.UTF_8));
    private static final byte[] MARK = PLACEHOLDER.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MARK_BASE64 = PLACEHOLDER_BASE64.getBytes(StandardCharsets.US_ASCII);
    private static final int[] MARK_SKIPS = skips(MARK);
    private static final int[] MARK_BASE64_SKIPS = skips(MARK_BASE64);
    private static final ObjectMapper JSON = new ObjectMapper();

    private PartialImages() {}

    /** Whether {@code payload} is a JSON row with at least one uncaptured column. */
    public static boolean isPartial(byte[] payload) {
        if (payload == null || !containsAMark(payload)) {
            return false; // the common case, without parsing
        }
        JsonNode row = row(payload);
        return row != null && !uncaptured(row).isEmpty();
    }

    /** The columns of {@code row} holding the placeholder. */
    public static List<String> uncaptured(JsonNode row) {
        List<String> out = new ArrayList<>();
        for (Iterator<String> names = row.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            JsonNode v = row.get(name);
            if (isPlaceholder(v) || (v.isArray() && v.size() > 0 && isPlaceholder(v.get(0)))) {
                out.add(name);
            }
        }
        return out;
    }

    /**
     * {@code partial} with each uncaptured column taken from {@code base} where base has it captured;
     * columns base cannot give keep the placeholder. Null when either is not a JSON object.
     */
    public static byte[] filledFrom(byte[] partial, byte[] base) {
        Filled f = fill(partial, base);
        return f == null ? null : bytes(f.row());
    }

    /** As {@link #filledFrom}, but null unless {@code base} gives every uncaptured column. */
    public static byte[] completedFrom(byte[] partial, byte[] base) {
        Filled f = fill(partial, base);
        return f == null || f.stillUncaptured() > 0 ? null : bytes(f.row());
    }

    private record Filled(ObjectNode row, int stillUncaptured) {}

    private static Filled fill(byte[] partial, byte[] base) {
        JsonNode row = row(partial);
        JsonNode from = row(base);
        if (row == null || from == null) {
            return null;
        }
        List<String> notInBase = uncaptured(from);
        ObjectNode out = ((ObjectNode) row).deepCopy();
        int still = 0;
        for (String column : uncaptured(row)) {
            JsonNode v = from.get(column);
            if (v != null && !notInBase.contains(column)) {
                out.set(column, v);
            } else {
                still++;
            }
        }
        return new Filled(out, still);
    }

    private static byte[] bytes(JsonNode row) {
        return row.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static boolean isPlaceholder(JsonNode v) {
        return v.isTextual() && (v.asText().equals(PLACEHOLDER) || v.asText().equals(PLACEHOLDER_BASE64));
    }

    private static JsonNode row(byte[] payload) {
        try {
            JsonNode node = JSON.readTree(payload);
            return node != null && node.isObject() ? node : null;
        } catch (IOException notJson) {
            return null;
        }
    }

    /**
     * Whether either placeholder's bytes occur in {@code bytes}. It runs on every write's payload, so it
     * skips (Horspool): a byte that does not occur in the mark moves the search a whole mark's length on.
     * In the bootstrap's profile it took the scan from 14 % to 5 % of the write thread (docs/benchmarks.md).
     */
    static boolean containsAMark(byte[] bytes) {
        return occurs(bytes, MARK, MARK_SKIPS) || occurs(bytes, MARK_BASE64, MARK_BASE64_SKIPS);
    }

    /** How far the search may move on when the byte under the mark's last position is b. */
    private static int[] skips(byte[] mark) {
        int[] skips = new int[256];
        Arrays.fill(skips, mark.length);
        for (int i = 0; i < mark.length - 1; i++) {
            skips[mark[i] & 0xff] = mark.length - 1 - i;
        }
        return skips;
    }

    private static boolean occurs(byte[] bytes, byte[] mark, int[] skips) {
        int last = mark.length - 1;
        for (int at = 0; at + last < bytes.length; at += skips[bytes[at + last] & 0xff]) {
            int j = last;
            while (j >= 0 && bytes[at + j] == mark[j]) {
                j--;
            }
            if (j < 0) {
                return true;
            }
        }
        return false;
    }
}
