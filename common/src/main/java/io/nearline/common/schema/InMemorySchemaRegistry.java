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

import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

/** A registry held in memory: for tests and single-process tools, and the cache of {@link DirectorySchemaRegistry}. */
public class InMemorySchemaRegistry implements SchemaRegistry {

    private final Map<String, NavigableMap<Integer, Schema>> tables = new ConcurrentHashMap<>();

    @Override
    public Schema schema(String table, int version) {
        NavigableMap<Integer, Schema> versions = tables.get(table);
        Schema schema = versions == null ? null : versions.get(version);
        if (schema == null) {
            throw new UnknownSchemaException(table, version);
        }
        return schema;
    }

    @Override
    public OptionalInt latestVersion(String table) {
        NavigableMap<Integer, Schema> versions = tables.get(table);
        return versions == null || versions.isEmpty() ? OptionalInt.empty() : OptionalInt.of(versions.lastKey());
    }

    @Override
    public synchronized void register(String table, int version, Schema schema) {
        if (version < 1) {
            throw new SchemaRegistryException(
                    "schema versions start at 1, got " + version + " for table '" + table + "'");
        }
        NavigableMap<Integer, Schema> versions = tables.computeIfAbsent(table, t -> new ConcurrentSkipListMap<>());
        Schema existing = versions.get(version);
        if (existing != null) {
            if (existing.equals(schema)) {
                return;
            }
            throw new SchemaRegistryException("table '" + table + "' version " + version
                    + " is already registered with a different schema; register the change as a new version");
        }
        if (!versions.isEmpty() && version < versions.lastKey()) {
            throw new SchemaRegistryException("table '" + table + "' is at version " + versions.lastKey()
                    + "; a new version must be greater, got " + version);
        }
        for (Map.Entry<Integer, Schema> older : versions.entrySet()) {
            SchemaCompatibility.SchemaPairCompatibility result =
                    SchemaCompatibility.checkReaderWriterCompatibility(schema, older.getValue());
            if (result.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
                throw new SchemaRegistryException("table '" + table + "' version " + version
                        + " cannot read data written with version " + older.getKey() + ": "
                        + result.getDescription() + ". Give new fields a default and keep field types compatible.");
            }
        }
        versions.put(version, schema);
    }
}
