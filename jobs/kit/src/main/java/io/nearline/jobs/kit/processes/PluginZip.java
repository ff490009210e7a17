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
package io.nearline.jobs.kit.processes;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/** A Kafka Connect plugin as it ships (a zip in Confluent Hub's layout), unpacked for a worker's plugin path. */
public final class PluginZip {

    private PluginZip() {}

    /**
     * Unpacks a plugin zip (one top folder holding {@code lib/}, Confluent Hub's layout) into {@code dir},
     * which then goes on a worker's {@code plugin.path}; returns {@code dir}.
     */
    public static Path unpack(Path zip, Path dir) throws IOException {
        if (!Files.isRegularFile(zip)) {
            throw new IllegalStateException(zip + " is missing: build with ./mvnw package -DskipTests");
        }
        try (ZipFile file = new ZipFile(zip.toFile())) {
            for (ZipEntry entry : file.stream().toList()) {
                Path to = dir.resolve(entry.getName()).normalize();
                if (!to.startsWith(dir)) {
                    throw new IOException(zip + " holds an entry outside its folder: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(to);
                } else {
                    Files.createDirectories(to.getParent());
                    try (InputStream in = file.getInputStream(entry)) {
                        Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        }
        return dir;
    }
}
