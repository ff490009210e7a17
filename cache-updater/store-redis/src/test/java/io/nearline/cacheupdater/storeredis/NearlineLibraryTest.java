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
package io.nearline.cacheupdater.storeredis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The function library's code is tied to its name. The job never replaces a library already on the
 * server (only an admin does), so a server keeps running whatever code the name had when it was
 * loaded: changing the code without changing the name would leave servers on the old code unseen.
 */
class NearlineLibraryTest {

    private static final String NEARLINE_V2_SHA256 = "43d06a9a44dbb60815fa696e6c24662f64c524a625fdf3a9c53cbe5fc2d1d282";

    @Test
    void theLibrarysCodeIsTheCodeItsNameWasReleasedWith() throws Exception {
        String code = RedisCacheStore.functionLibrary();
        assertTrue(code.contains("#!lua name=" + RedisCacheStore.LIBRARY), "the library declares its name");
        String sha = HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(code.getBytes(StandardCharsets.UTF_8)));
        assertEquals(
                NEARLINE_V2_SHA256,
                sha,
                "nearline_v2.lua changed: give the library a new name (RedisCacheStore.LIBRARY, nearline_v3, and "
                        + "its #!lua line) so that servers holding the old code are loaded with the new, then "
                        + "the new hash here");
    }
}
