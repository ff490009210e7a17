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
package io.nearline.common.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local Redis's config holds its users' passwords as SHA-256 only, and the server still takes them. */
class RedisServerProcessTest {

    private static final RedisServerProcess.Store BARE = new RedisServerProcess.Store("+@all", settings -> {});

    @TempDir
    Path dir;

    @Test
    void theConfigHoldsHashesNotPasswords() throws Exception {
        Files.writeString(dir.resolve(RedisServerProcess.PASSWORD_FILE), "abc\n");
        Path config = RedisServerProcess.writeConfig(dir, "127.0.0.1", 6390, BARE, List.of());
        String written = Files.readString(config);
        // the SHA-256 of "abc" (FIPS 180-2's first example), not computed here
        assertTrue(
                written.contains("user nearline on #ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad "),
                written);
        String admin = Files.readString(dir.resolve(RedisServerProcess.ADMIN_PASSWORD_FILE))
                .trim();
        assertFalse(written.contains(">"), "a clear password rule: " + written);
        assertFalse(written.contains(admin), "the admin's password in clear: " + written);
    }

    @Test
    void theServerTakesThePasswordsItHoldsHashesOf() throws Exception {
        Optional<String> skip = RedisServerProcess.skipReason();
        skip.ifPresent(System.out::println);
        Assumptions.assumeTrue(skip.isEmpty());
        try (RedisServerProcess server = RedisServerProcess.start(dir, BARE, List.of(), false)) {
            assertEquals("PONG", server.cliAsJob("PING"));
            assertEquals("PONG", server.cli("PING"));
            Files.writeString(dir.resolve(RedisServerProcess.PASSWORD_FILE), "not-the-password");
            assertTrue(server.cliAsJob("PING").contains("WRONGPASS"), "the control: a wrong password is refused");
        }
    }
}
