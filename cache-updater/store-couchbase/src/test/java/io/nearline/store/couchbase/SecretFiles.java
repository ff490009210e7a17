package io.nearline.store.couchbase;

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
