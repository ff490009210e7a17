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
package io.nearline.cli.endtoend;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A search of every file under some directories for planted secrets, byte for byte: what a deploy
 * left at rest (Kafka's log segments, among them Connect's config topic and Samza's coordinator
 * stream; YARN's and Flink's logs; HDFS's blocks; the cluster's own files). A secret in a compressed
 * record batch or a compressed file would not be found.
 */
record SecretSearch(Map<String, String> secrets) {

    /** Where a secret was found: "the Kafka password in DIR/x/y". */
    List<String> findIn(List<Path> roots, Set<Path> kept) throws IOException {
        List<String> found = new ArrayList<>();
        for (Path root : roots) {
            List<Path> files;
            try (Stream<Path> walk = Files.walk(root)) {
                files = walk.filter(Files::isRegularFile).toList();
            }
            for (Path file : files) {
                if (kept.contains(file.toAbsolutePath().normalize())) {
                    continue;
                }
                String bytes = read(file);
                secrets.forEach((name, secret) -> {
                    if (bytes.contains(secret)) {
                        found.add(name + " in " + file);
                    }
                });
            }
        }
        return found;
    }

    /** The file's bytes as Latin-1, so that any byte sequence is searchable; empty if it vanished meanwhile. */
    private static String read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (java.nio.file.NoSuchFileException | java.nio.file.AccessDeniedException gone) {
            return "";
        }
    }
}
