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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * Distinct rows, distinct keys: over arbitrary values (any Unicode, heavy on {@code :} and {@code \}),
 * a key is read back to exactly its values, so no two lists of values share one. The join keys had
 * before this rule, a bare {@code :}, is the control: the same search finds its collisions.
 */
class RowKeyTest {

    /** Values drawn mostly from the characters that matter, with any other character now and then. */
    @Provide
    Arbitrary<List<String>> values() {
        Arbitrary<Character> chars = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, Arbitraries.of(':', '\\', 'a', 'b')),
                net.jqwik.api.Tuple.of(1, Arbitraries.chars()));
        return chars.list()
                .ofMaxSize(5)
                .map(RowKeyTest::text)
                .list()
                .ofMinSize(1)
                .ofMaxSize(4);
    }

    private static String text(List<Character> chars) {
        StringBuilder out = new StringBuilder();
        chars.forEach(out::append);
        return out.toString();
    }

    @Property(tries = 3000)
    void aKeyReadsBackToItsValues(@ForAll("values") List<String> values, @ForAll @Size(max = 3) List<Character> p) {
        String prefix = text(p);
        assertEquals(values, RowKey.values(RowKey.of(prefix, values), prefix));
    }

    @Property(tries = 2000)
    void valuesWithoutAColonKeepTheKeysTheyHad(@ForAll("values") List<String> values) {
        List<String> plain = values.stream()
                .map(v -> v.replace(":", "").replaceAll("\\\\+$", ""))
                .toList();
        assertEquals(String.join(":", plain), RowKey.of("", plain));
    }

    @Test
    void differentRowsGetDifferentKeysWhereTheOldJoinCollides() {
        Map<String, List<String>> seen = new HashMap<>();
        Map<String, List<String>> seenByOldJoin = new HashMap<>();
        int oldCollisions = 0;
        for (List<String> values : everyListOfShortValues()) {
            List<String> before = seen.put(RowKey.of("t:", values), values);
            assertTrue(before == null, values + " and " + before + " share a key");
            if (seenByOldJoin.put("t:" + String.join(":", values), values) != null) {
                oldCollisions++;
            }
        }
        assertNotEquals(0, oldCollisions, "the control found no collision of the old join");
    }

    @Test
    void theIssuesExample() {
        assertEquals("x:y", RowKey.of("", List.of("x", "y")));
        assertEquals("x\\:y:z", RowKey.of("", List.of("x:y", "z")));
        assertEquals("x:y\\:z", RowKey.of("", List.of("x", "y:z")));
        assertEquals("a\\\\:b", RowKey.of("", List.of("a\\", "b")));
        assertEquals("s.t\\:1:", RowKey.tablePart("s.t:1"));
    }

    /** Every list of one to three values over {"", ":", "\", "a", "a:", "\:", ...}: small, and every tricky case. */
    private static List<List<String>> everyListOfShortValues() {
        List<String> atoms = new ArrayList<>();
        String[] chars = {"", ":", "\\", "a"};
        for (String x : chars) {
            for (String y : chars) {
                atoms.add(x + y);
            }
        }
        List<String> distinct = atoms.stream().distinct().toList();
        List<List<String>> out = new ArrayList<>();
        for (String a : distinct) {
            out.add(List.of(a));
            for (String b : distinct) {
                out.add(List.of(a, b));
                for (String c : distinct) {
                    out.add(List.of(a, b, c));
                }
            }
        }
        return out;
    }
}
