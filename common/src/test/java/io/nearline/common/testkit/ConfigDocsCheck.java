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

import static org.junit.jupiter.api.Assertions.fail;

import io.nearline.common.config.ConfigDef;
import io.nearline.common.config.ConfigDocs;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Keeps {@code docs/configuration.md} in step with the key declarations. A module's test calls
 * {@link #assertInSync}; after changing a key, regenerate with {@code ./mvnw test -Dnearline.updateDocs=true}.
 */
public final class ConfigDocsCheck {

    private ConfigDocsCheck() {}

    public static void assertInSync(String sectionId, ConfigDef def) {
        Path doc = repoRoot().resolve("docs/configuration.md");
        boolean update = Boolean.getBoolean("nearline.updateDocs");
        String expected = ConfigDocs.checkSection(doc, sectionId, def, update);
        if (expected != null) {
            fail("docs/configuration.md section '" + sectionId + "' is out of date with the declared keys. "
                    + "Run ./mvnw test -Dnearline.updateDocs=true to regenerate it. Expected:\n" + expected);
        }
    }

    public static Path repoRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("docs/configuration.md"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException(
                    "docs/configuration.md not found above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}
