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
package io.nearline.common.schema;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.SchemaFormatter;
import org.apache.avro.SchemaParseException;

/**
 * A registry backed by a directory: {@code ROOT/<table>/v<N>.avsc}. Several processes can share it.
 * A version missing from memory is looked up on disk again before it is declared unknown, so a reader
 * picks up a schema that a newer writer (a canary) registered after the reader started.
 */
public final class DirectorySchemaRegistry implements SchemaRegistry {

    private static final Pattern FILE = Pattern.compile("v(\\d+)\\.avsc");

    private final Path root;
    private final InMemorySchemaRegistry loaded = new InMemorySchemaRegistry();

    public DirectorySchemaRegistry(Path root) {
        this.root = root;
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new SchemaRegistryException("cannot create schema registry directory " + root, e);
        }
    }

    @Override
    public Schema schema(String table, int version) {
        try {
            return loaded.schema(table, version);
        } catch (UnknownSchemaException e) {
            reload(table);
            return loaded.schema(table, version);
        }
    }

    @Override
    public OptionalInt latestVersion(String table) {
        reload(table);
        return loaded.latestVersion(table);
    }

    @Override
    public synchronized void register(String table, int version, Schema schema) {
        reload(table);
        loaded.register(table, version, schema); // enforces the evolution rules
        Path file = tableDir(table).resolve("v" + version + ".avsc");
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), "v" + version, ".tmp");
            Files.writeString(tmp, SchemaFormatter.format("json/pretty", schema), StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new SchemaRegistryException("cannot write " + file, e);
        }
    }

    private Path tableDir(String table) {
        if (table.isEmpty() || table.contains("/") || table.contains("\\") || table.startsWith(".")) {
            throw new SchemaRegistryException("table name '" + table + "' cannot be a directory name");
        }
        return root.resolve(table);
    }

    private synchronized void reload(String table) {
        Path dir = tableDir(table);
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<int[]> versions = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "v*.avsc")) {
            for (Path f : files) {
                Matcher m = FILE.matcher(f.getFileName().toString());
                if (m.matches()) {
                    versions.add(new int[] {Integer.parseInt(m.group(1))});
                }
            }
        } catch (IOException e) {
            throw new SchemaRegistryException("cannot list " + dir, e);
        }
        versions.sort((a, b) -> Integer.compare(a[0], b[0]));
        for (int[] v : versions) {
            if (loaded.latestVersion(table).orElse(0) >= v[0]) {
                continue;
            }
            Path f = dir.resolve("v" + v[0] + ".avsc");
            try {
                loaded.register(table, v[0], new Schema.Parser().parse(Files.readString(f, StandardCharsets.UTF_8)));
            } catch (IOException | SchemaParseException e) {
                throw new SchemaRegistryException("cannot read schema " + f + ": " + e.getMessage(), e);
            }
        }
    }
}
