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
