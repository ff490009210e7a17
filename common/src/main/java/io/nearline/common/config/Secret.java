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
package io.nearline.common.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A password or key, given in configuration only by reference: {@code env:NAME} (an environment
 * variable) or {@code file:PATH} (a file's content, trailing newline dropped). The reference is
 * checked for form when the configuration is loaded and resolved where the secret is used (a
 * task on a cluster node resolves it there). Never printed: {@link #toString} shows the reference.
 */
public final class Secret {

    /** No secret at all (e.g. a test server that takes any password). */
    public static final Secret NONE = new Secret("");

    private final String reference;

    private Secret(String reference) {
        this.reference = reference;
    }

    /** Parses a reference; a value that is not one (a secret written inline) is refused. */
    public static Secret parse(String text) {
        if (text.isEmpty()) {
            return NONE;
        }
        if ((text.startsWith("env:") || text.startsWith("file:")) && text.indexOf(':') < text.length() - 1) {
            return new Secret(text);
        }
        throw new IllegalArgumentException("not a reference");
    }

    public String reference() {
        return reference;
    }

    /** The secret itself, read now from the environment or the file. */
    public String reveal() {
        if (reference.isEmpty()) {
            return "";
        }
        if (reference.startsWith("env:")) {
            String name = reference.substring(4);
            String value = System.getenv(name);
            if (value == null) {
                throw new ConfigException(
                        "the secret " + reference + " is not set: export " + name + " where the job runs");
            }
            return value;
        }
        Path file = Path.of(reference.substring(5));
        try {
            String value = Files.readString(file, StandardCharsets.UTF_8);
            return value.endsWith("\n") ? value.substring(0, value.length() - 1) : value;
        } catch (IOException e) {
            throw new ConfigException("cannot read the secret " + reference + ": " + e.getMessage());
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Secret other && other.reference.equals(reference);
    }

    @Override
    public int hashCode() {
        return reference.hashCode();
    }

    @Override
    public String toString() {
        return reference.isEmpty() ? "(none)" : reference;
    }
}
