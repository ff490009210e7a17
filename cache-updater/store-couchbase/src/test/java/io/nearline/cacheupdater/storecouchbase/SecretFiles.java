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
package io.nearline.cacheupdater.storecouchbase;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Test passwords as the store takes them: by reference to a file holding the secret. */
final class SecretFiles {

    private SecretFiles() {}

    /** A {@code file:} reference to a new file holding {@code secret}, deleted when the JVM exits. */
    static String reference(String secret) {
        try {
            Path file = Files.createTempFile("nearline-secret", ".txt");
            file.toFile().deleteOnExit();
            Files.writeString(file, secret + "\n");
            return "file:" + file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
