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
package io.nearline.common.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.common.version.Version;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * How far one writing task's writes of one table from one input partition are complete, as the job
 * publishes it in the store beside the data (its {@code consistent-through}): every change of
 * {@code table} from {@code partition} that task took, committed up to {@code commitTimeMillis}, at or
 * below {@code version}, is in the cache. Where an engine spreads a partition's changes over several
 * tasks by key (Flink's keyBy), each task publishes its own entry, and the table is as far as the
 * oldest of them. Stored under {@link #key} as a cache record at {@code version}, its payload this JSON:
 * {@code {"table", "partition", "writer", "commitTimeMillis", "scn", "seq", "publishedMillis"}}.
 */
public record ConsistentThroughEntry(
        String table, int partition, String writer, long commitTimeMillis, Version version, long publishedMillis) {

    /** Where the jobs publish unless {@code write.consistent-through.key-prefix} says otherwise. */
    public static final String DEFAULT_KEY_PREFIX = "nearline.through:";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The entry's key: the prefix, then the table, the partition and the writer as key values ({@link RowKey}). */
    public static String key(String prefix, String table, int partition, String writer) {
        return RowKey.of(prefix, List.of(table, Integer.toString(partition), writer));
    }

    /** The prefix every entry of {@code table} starts with, to list them by a scan. */
    public static String tablePrefix(String prefix, String table) {
        return prefix + RowKey.tablePart(table);
    }

    public byte[] payload() {
        ObjectNode o = JSON.createObjectNode()
                .put("table", table)
                .put("partition", partition)
                .put("writer", writer)
                .put("commitTimeMillis", commitTimeMillis)
                .put("scn", version.scn().value())
                .put("seq", version.seq())
                .put("publishedMillis", publishedMillis);
        try {
            return JSON.writeValueAsBytes(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The entry a cache record of {@link #key} holds; IllegalArgumentException where it is not one. */
    public static ConsistentThroughEntry of(CacheRecord record) {
        try {
            JsonNode o = JSON.readTree(record.payload());
            if (o == null || !o.has("scn") || !o.has("table")) {
                throw new IllegalArgumentException("not a consistent-through entry: " + o);
            }
            return new ConsistentThroughEntry(
                    o.path("table").asText(),
                    o.path("partition").asInt(),
                    o.path("writer").asText(""),
                    o.path("commitTimeMillis").asLong(),
                    Version.of(o.path("scn").asLong(), o.path("seq").asLong(), 0),
                    o.path("publishedMillis").asLong());
        } catch (IOException e) {
            throw new IllegalArgumentException("not a consistent-through entry: " + e.getMessage(), e);
        }
    }
}
