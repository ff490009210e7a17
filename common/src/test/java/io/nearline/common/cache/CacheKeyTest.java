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
