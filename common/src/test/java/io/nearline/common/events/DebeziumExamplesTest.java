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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.cache.CacheRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Debezium's own published events (test resources {@code debezium-examples/}, with their provenance),
 * decoded and applied in file order, newest version wins: the cache each stream leaves and the dead
 * letters it makes. Expected values name the line whose image must be left, read here from the file
 * itself, so the test states the outcome rather than copying the decoder.
 */
class DebeziumExamplesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DELETED = "deleted";

    @Test
    void postgres() throws IOException {
        Outcome o = apply("postgres.jsonl", new DebeziumDecoder(List.of("id"), "", DebeziumDecoder.AUTO));
        assertEquals(
                Map.of(
                        "1001", line(1), "1002", line(2), "1003", line(3), "1004", DELETED, "1005", line(5), "1",
                        DELETED, "2", line(13), "101", line(18)),
                o.cache("postgres.jsonl"));
        assertEquals(List.of("16 TRUNCATE", "17 UNKNOWN_OP"), o.rejected);
        assertEquals(List.of(9, 11), o.skipped, "the null tombstones after deletes");
    }

    @Test
    void mysqlAndMariadb() throws IOException {
        Outcome o = apply("mysql.jsonl", new DebeziumDecoder(List.of("id"), "", DebeziumDecoder.AUTO));
        assertEquals(Map.of("1004", DELETED, "1003", line(7), "1001", line(8)), o.cache("mysql.jsonl"));
        assertEquals(List.of("10 TRUNCATE", "11 MISSING_KEY"), o.rejected);
    }

    @Test
    void mysqlProductsWithAKeyFieldAndPrefix() throws IOException {
        Outcome o = apply("mysql-products.jsonl", new DebeziumDecoder(List.of("product_id"), "product:", "auto"));
        assertEquals(Map.of("product:101", line(1)), o.cache("mysql-products.jsonl"));
        assertEquals(List.of(), o.rejected);
    }

    /** Debezium 0.x source blocks name no connector: the binlog fields tell it, or the setting names it. */
    @Test
    void mysqlLegacyEventsWithoutAConnector() throws IOException {
        for (String versionField : List.of(DebeziumDecoder.AUTO, DebeziumDecoder.MYSQL_BINLOG)) {
            Outcome o = apply("mysql-legacy.jsonl", new DebeziumDecoder(List.of("id"), "", versionField));
            assertEquals(
                    Map.of("1001", line(1), "1002", line(2), "1004", DELETED, "1005", line(7), "1006", line(8)),
                    o.cache("mysql-legacy.jsonl"),
                    versionField);
            assertEquals(List.of(), o.rejected, versionField);
        }
    }

    @Test
    void oracle() throws IOException {
        Outcome o = apply("oracle.jsonl", new DebeziumDecoder(List.of("ID"), "", DebeziumDecoder.AUTO));
        assertEquals(Map.of("1004", DELETED, "1005", line(6), "1006", line(8)), o.cache("oracle.jsonl"));
        assertEquals(List.of("10 TRUNCATE"), o.rejected);
    }

    /** As printed in the docs, the delete's SCN is below the create's: ordered by SCN, the delete is stale. */
    @Test
    void oracleDocsVerbatim() throws IOException {
        for (String versionField : List.of("source.scn", DebeziumDecoder.AUTO)) {
            Outcome o = apply("oracle-doc-verbatim.jsonl", new DebeziumDecoder(List.of("ID"), "", versionField));
            assertEquals(Map.of("1004", line(2)), o.cache("oracle-doc-verbatim.jsonl"), versionField);
        }
    }

    /** What a stream leaves: per key the newest record; dead letters and skips by line number. */
    private record Outcome(Map<String, CacheRecord> records, List<String> rejected, List<Integer> skipped) {

        /** Per key, "deleted" or the line whose after image the key holds. */
        Map<String, String> cache(String file) throws IOException {
            List<String> lines = lines(file);
            Map<String, String> out = new TreeMap<>();
            records.forEach((key, r) -> {
                if (r.tombstone()) {
                    out.put(key, DELETED);
                    return;
                }
                JsonNode held = parse(new String(r.payload(), StandardCharsets.UTF_8));
                for (int i = 0; i < lines.size(); i++) {
                    if (held.equals(afterImage(lines.get(i)))) {
                        out.put(key, line(i + 1));
                        return;
                    }
                }
                out.put(key, "no line's image: " + held);
            });
            return out;
        }
    }

    private static String line(int n) {
        return "line " + n;
    }

    private static Outcome apply(String file, DebeziumDecoder decoder) throws IOException {
        Map<String, CacheRecord> records = new TreeMap<>();
        List<String> rejected = new ArrayList<>();
        List<Integer> skipped = new ArrayList<>();
        List<String> lines = lines(file);
        for (int i = 0; i < lines.size(); i++) {
            DebeziumText.KafkaRecord record = DebeziumText.record(lines.get(i), decoder);
            assertTrue(record != null, file + " line " + (i + 1) + " is not a record");
            Decoded d = decoder.decode(record.key(), record.value());
            if (d.isSkipped()) {
                skipped.add(i + 1);
            } else if (!d.ok()) {
                rejected.add((i + 1) + " " + d.rejection().reason());
            } else {
                ChangeEvent e = d.event();
                CacheRecord r = ChangeEvents.cacheRecord(e);
                records.merge(e.getKey(), r, (held, next) -> next.version().isNewerThan(held.version()) ? next : held);
            }
        }
        return new Outcome(records, rejected, skipped);
    }

    /** The after image of a file line, read without the decoder (an equal decimal-free JSON tree). */
    private static JsonNode afterImage(String line) {
        JsonNode node = parse(line);
        if (node.size() == 2 && node.has("key") && node.has("value")) {
            node = node.get("value");
        }
        if (node.has("schema") && node.has("payload")) {
            node = node.get("payload");
        }
        return node.path("after");
    }

    private static List<String> lines(String file) throws IOException {
        try (InputStream in = DebeziumExamplesTest.class.getResourceAsStream("/debezium-examples/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .filter(l -> !l.isBlank())
                    .toList();
        }
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
