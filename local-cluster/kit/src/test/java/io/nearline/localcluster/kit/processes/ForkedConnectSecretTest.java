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
package io.nearline.localcluster.kit.processes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A connector's password goes to the worker's secrets file, its owner's only; the config gets the reference. */
class ForkedConnectSecretTest {

    @TempDir
    Path dir;

    @Test
    void aSecretIsKeptInTheOwnersFileAndReferredTo() throws Exception {
        Path file = dir.resolve("secrets.properties");
        String password = "p=ss:w0rd#1 \\\\ ok";
        assertEquals(
                "${file:" + file + ":database.password}", ForkedConnect.secret(file, "database.password", password));
        ForkedConnect.secret(file, "other.password", "second");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        Properties read = new Properties(); // as Kafka's FileConfigProvider reads it
        try (InputStream in = Files.newInputStream(file)) {
            read.load(in);
        }
        assertEquals(password, read.getProperty("database.password"));
        assertEquals("second", read.getProperty("other.password"));
    }
}
