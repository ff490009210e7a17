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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.cache.RowKey;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

/**
 * Keys of a connector's whole stream: several tables in one job (docs/debezium.md#many-tables). The
 * rows below are shaped as Debezium's PostgreSQL and MySQL connectors write them: the record key holds
 * the primary key, the source block names the schema (or database) and the table.
 */
class DebeziumTablesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> THREE = List.of("public.customers", "public.orders", "public.links");

    private static DebeziumDecoder tables(List<String> names) {
        Map<String, DebeziumKeys.Table> listed = new LinkedHashMap<>();
        names.forEach(n -> listed.put(n, DebeziumKeys.Table.DEFAULT));
        return new DebeziumDecoder(new DebeziumKeys("", List.of(), listed), DebeziumDecoder.AUTO);
    }

    /** A PostgreSQL create of {@code schema.table} whose record key is {@code key} (JSON object). */
    private static Decoded postgres(DebeziumDecoder d, String schema, String table, String key, String row) {
        String value = "{\"after\":" + row + ",\"op\":\"c\",\"source\":{\"connector\":\"postgresql\",\"db\":\"shop\","
                + "\"schema\":\"" + schema + "\",\"table\":\"" + table
                + "\",\"lsn\":100,\"sequence\":\"[\\\"90\\\",\\\"100\\\"]\"}}";
        return d.decode(b(key), b(value));
    }

    private static String keyOf(Decoded d) {
        assertNull(d.rejection(), () -> "rejected: " + d.rejection());
        return d.event().getKey();
    }

    @Test
    void rowsOfTablesSharingIdsGetKeysNamingTheirTable() {
        DebeziumDecoder d = tables(THREE);
        assertEquals(
                "public.customers:5",
                keyOf(postgres(d, "public", "customers", "{\"id\":5}", "{\"id\":5,\"name\":\"a\"}")));
        assertEquals("public.orders:5", keyOf(postgres(d, "public", "orders", "{\"id\":5}", "{\"id\":5,\"qty\":1}")));
        ChangeEvent link = postgres(
                        d, "public", "links", "{\"from_id\":3,\"to_id\":17}", "{\"from_id\":3,\"to_id\":17}")
                .event();
        assertEquals("public.links:3:17", link.getKey(), "a composite primary key, in the record key's order");
        assertEquals("public.links", link.getTable());
    }

    @Test
    void mysqlTablesAreNamedByTheirDatabase() {
        DebeziumDecoder d = tables(List.of("inventory.customers", "inventory.orders"));
        String value =
                "{\"after\":{\"order_id\":7},\"op\":\"c\",\"source\":{\"connector\":\"mysql\",\"db\":\"inventory\","
                        + "\"table\":\"orders\",\"file\":\"mysql-bin.000003\",\"pos\":4,\"row\":0}}";
        assertEquals("inventory.orders:7", keyOf(d.decode(b("{\"order_id\":7}"), b(value))));
    }

    @Test
    void aTableNotListedIsDeadLetteredNamingIt() {
        Decoded d = postgres(tables(THREE), "public", "audit", "{\"id\":1}", "{\"id\":1}");
        assertEquals(Rejection.Reason.UNKNOWN_TABLE, d.rejection().reason());
        assertTrue(
                d.rejection().detail().contains("public.audit"), d.rejection().detail());
        // an unwrapped row without the table in add.fields names none
        Decoded unnamed = tables(THREE)
                .decode(
                        b("{\"id\":1}"),
                        b("{\"id\":1,\"__op\":\"c\",\"__source_connector\":" + "\"postgresql\",\"__lsn\":5}"));
        assertEquals(Rejection.Reason.UNKNOWN_TABLE, unnamed.rejection().reason());
        assertTrue(
                unnamed.rejection().detail().contains("add.fields"),
                unnamed.rejection().detail());
    }

    @Test
    void unwrappedRowsNameTheirTableByTheAddedSourceFields() {
        String row = "{\"id\":5,\"__deleted\":\"true\",\"__op\":\"d\",\"__source_connector\":\"postgresql\","
                + "\"__source_schema\":\"public\",\"__source_table\":\"orders\",\"__lsn\":200,"
                + "\"__source_sequence\":\"[\\\"190\\\",\\\"200\\\"]\"}";
        ChangeEvent e = tables(THREE).decode(b("{\"id\":5}"), b(row)).event();
        assertEquals("public.orders:5", e.getKey());
        assertEquals(io.nearline.common.avro.Op.DELETE, e.getOp());
        assertEquals(190, e.getScn(), "the rewritten delete keeps its version");
    }

    @Test
    void aTablesOwnKeyFieldsAndPrefixReplaceTheDefaults() {
        Map<String, DebeziumKeys.Table> listed = new LinkedHashMap<>();
        listed.put("public.customers", DebeziumKeys.Table.DEFAULT);
        listed.put("public.orders", new DebeziumKeys.Table(List.of("order_no"), "order:"));
        DebeziumDecoder d = new DebeziumDecoder(new DebeziumKeys("shop/", List.of(), listed), DebeziumDecoder.AUTO);
        assertEquals(
                "shop/order:A-9",
                keyOf(postgres(d, "public", "orders", "{\"id\":5}", "{\"id\":5,\"order_no\":\"A-9\"}")));
        assertEquals("shop/public.customers:5", keyOf(postgres(d, "public", "customers", "{\"id\":5}", "{\"id\":5}")));
    }

    /** A table's own key fields are its key even where the record key is a plain value (a string converter's). */
    @Test
    void namedKeyFieldsWinOverAPlainRecordKey() {
        Map<String, DebeziumKeys.Table> listed = new LinkedHashMap<>();
        listed.put("public.orders", new DebeziumKeys.Table(List.of("order_no"), null));
        DebeziumDecoder d = new DebeziumDecoder(new DebeziumKeys("", List.of(), listed), DebeziumDecoder.AUTO);
        assertEquals("A-9", keyOf(postgres(d, "public", "orders", "5", "{\"id\":5,\"order_no\":\"A-9\"}")));
        DebeziumDecoder unnamed = tables(List.of("public.orders"));
        assertEquals("5", keyOf(postgres(unnamed, "public", "orders", "5", "{\"id\":5,\"order_no\":\"A-9\"}")));
    }

    @Test
    void oneTableKeepsTheKeysItAlwaysHad() {
        DebeziumDecoder one = tables(List.of("public.items"));
        DebeziumDecoder none = new DebeziumDecoder(List.of(), "", DebeziumDecoder.AUTO);
        for (DebeziumDecoder d : List.of(one, none)) {
            assertEquals("5", keyOf(postgres(d, "public", "items", "{\"id\":5}", "{\"id\":5}")));
        }
        // no record key a JSON reader can take (a StringConverter's): id from the row, as before tables
        String value = "{\"after\":{\"id\":8},\"op\":\"c\",\"source\":{\"connector\":\"postgresql\",\"lsn\":1}}";
        assertEquals("8", keyOf(none.decode("Struct{id=8}".getBytes(StandardCharsets.UTF_8), b(value))));
        assertEquals(
                "3:17",
                keyOf(postgres(
                        none, "public", "links", "{\"from_id\":3,\"to_id\":17}", "{\"from_id\":3,\"to_id\":17}")),
                "a composite key, which had no key before");
    }

    /** Any two rows of different listed tables, whatever their key values, get different keys. */
    @Property(tries = 300)
    void keysOfDifferentTablesNeverCollide(
            @ForAll("rowsOfTwoTables") Tuple.Tuple4<String, String, String, String> rows) {
        DebeziumDecoder d = tables(List.of("public.a", "public.a_b", "app.a"));
        String k1 = keyOf(postgres(d, "public", "a", "{\"k\":\"" + rows.get1() + "\"}", "{}"));
        String k2 = keyOf(postgres(d, rows.get3(), rows.get4(), "{\"k\":\"" + rows.get2() + "\"}", "{}"));
        assertNotEquals(k1, k2);
    }

    @Provide
    Arbitrary<Tuple.Tuple4<String, String, String, String>> rowsOfTwoTables() {
        Arbitrary<String> value =
                Arbitraries.strings().withChars("ab_:.1").ofMinLength(1).ofMaxLength(6);
        Arbitrary<Tuple.Tuple2<String, String>> otherTable =
                Arbitraries.of(Tuple.of("public", "a_b"), Tuple.of("app", "a"));
        return net.jqwik.api.Combinators.combine(value, value, otherTable)
                .as((v1, v2, t) -> Tuple.of(v1, v2, t.get1(), t.get2()));
    }

    /**
     * Two rows of one table keyed by two text columns get different keys whatever their values hold
     * ({@code :}, the escape character, any Unicode), and each key reads back to its row's values. The
     * bare join of before (the control, counted) gives some of these pairs one key.
     */
    @Property(tries = 500)
    void rowsOfOneTableNeverShareAKey(@ForAll("compositeKeys") List<List<String>> rows) {
        DebeziumDecoder d = tables(List.of("public.pairs", "public.other"));
        List<String> a = rows.get(0);
        List<String> b = rows.get(1);
        String ka = keyOf(postgres(d, "public", "pairs", pair(a), "{}"));
        String kb = keyOf(postgres(d, "public", "pairs", pair(b), "{}"));
        assertEquals(!a.equals(b), !ka.equals(kb), a + " " + b + ": " + ka + " " + kb);
        assertEquals(a, RowKey.values(ka, "public.pairs:"));
    }

    @Provide
    Arbitrary<List<List<String>>> compositeKeys() {
        Arbitrary<String> value = Arbitraries.oneOf(
                Arbitraries.strings().withChars("x:y\\").ofMaxLength(4),
                Arbitraries.strings().ofMaxLength(4));
        return value.list().ofSize(2).list().ofSize(2);
    }

    private static String pair(List<String> values) {
        return JSON.createObjectNode()
                .put("u", values.get(0))
                .put("v", values.get(1))
                .toString();
    }

    @Test
    void theBareJoinGaveTwoRowsOneKey() {
        List<String> first = List.of("x:y", "z");
        List<String> second = List.of("x", "y:z");
        assertEquals(String.join(":", first), String.join(":", second), "the control: the old join collides");
        DebeziumDecoder d = tables(List.of("public.pairs", "public.other"));
        assertNotEquals(
                keyOf(postgres(d, "public", "pairs", pair(first), "{}")),
                keyOf(postgres(d, "public", "pairs", pair(second), "{}")));
    }

    /**
     * The negative control: one prefix for every table (the rule before tables) gives customers 5 and
     * orders 5 the same key, and the property above would fail with it.
     */
    @Test
    void theSinglePrefixRuleCollides() {
        DebeziumDecoder single = new DebeziumDecoder(List.of("id"), "", DebeziumDecoder.AUTO);
        Map<String, String> byKey = new HashMap<>();
        for (String table : List.of("customers", "orders")) {
            String previous = byKey.put(keyOf(postgres(single, "public", table, "{\"id\":5}", "{\"id\":5}")), table);
            if (previous != null) {
                return; // collided, as expected
            }
        }
        throw new AssertionError("the single-prefix rule was expected to collide: " + byKey);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
