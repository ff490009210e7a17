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
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CacheKeyTest {

    @Test
    void acceptsNonAsciiKeysUpToTheByteLimit() {
        String key = "é".repeat(125); // 2 bytes each in UTF-8: exactly 250
        assertEquals(250, CacheKey.of(key).utf8().length);
        assertEquals("プロフィール:42", CacheKey.of("プロフィール:42").value());
    }

    @Test
    void rejectsEmptyAndOverlongKeys() {
        assertThrows(IllegalArgumentException.class, () -> CacheKey.of(""));
        assertThrows(IllegalArgumentException.class, () -> CacheKey.of("é".repeat(126)));
        assertThrows(NullPointerException.class, () -> CacheKey.of(null));
    }
}
