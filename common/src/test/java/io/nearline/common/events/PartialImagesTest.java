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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The placeholder search every write runs before it decides: the skip search finds what a plain one finds. */
class PartialImagesTest {

    private static final String BASE64 =
            Base64.getEncoder().encodeToString(PartialImages.PLACEHOLDER.getBytes(StandardCharsets.UTF_8));

    /** Text made of the marks' own pieces, so that near misses, overlaps and marks at either end are common. */
    @Provide
    Arbitrary<String> rows() {
        Arbitrary<String> piece = Arbitraries.of(
                PartialImages.PLACEHOLDER,
                BASE64,
                PartialImages.PLACEHOLDER.substring(0, 27),
                PartialImages.PLACEHOLDER.substring(1),
                BASE64.substring(0, 39),
                "_",
                "__",
                "X19",
                "\"col\": ",
                "value",
                "é");
        return piece.list().ofMaxSize(12).map(parts -> String.join("", parts));
    }

    @Property(tries = 2000)
    void findsAMarkExactlyWhereAPlainSearchDoes(@ForAll("rows") String row) {
        boolean plain = row.contains(PartialImages.PLACEHOLDER) || row.contains(BASE64);
        assertEquals(plain, PartialImages.containsAMark(row.getBytes(StandardCharsets.UTF_8)), row);
    }

    @Test
    void marksAtTheEdgesAndNearMisses() {
        assertTrue(PartialImages.containsAMark(PartialImages.PLACEHOLDER.getBytes(StandardCharsets.US_ASCII)));
        assertTrue(PartialImages.containsAMark(("{\"a\":\"" + BASE64 + "\"}").getBytes(StandardCharsets.US_ASCII)));
        assertFalse(PartialImages.containsAMark(
                PartialImages.PLACEHOLDER.substring(1).getBytes(StandardCharsets.US_ASCII)));
        assertFalse(PartialImages.containsAMark(new byte[0]));
        assertFalse(PartialImages.containsAMark(
                "{\"a\": \"__debezium_unavailable_valu\"}".getBytes(StandardCharsets.US_ASCII)));
    }
}
