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

import java.util.OptionalInt;
import org.apache.avro.Schema;

/**
 * Avro schemas of source-of-truth tables by version. Payloads in change events and cache records are
 * Avro binary under their writer's schema version; a reader needs that exact schema to decode, then
 * up-converts to its own version (see {@link PayloadUpconverter}).
 *
 * <p>Registration enforces evolution rules: versions of a table are registered in increasing order,
 * a registered version never changes, and a new version must be able to read data written with every
 * earlier one (Avro backward compatibility), so up-conversion always works.
 */
public interface SchemaRegistry {

    /** The schema {@code table} had at {@code version}. @throws UnknownSchemaException if not registered */
    Schema schema(String table, int version);

    /** The newest registered version of {@code table}, if any. */
    OptionalInt latestVersion(String table);

    /**
     * Registers {@code schema} as {@code table}'s {@code version}. Registering the identical schema
     * again is a no-op. @throws SchemaRegistryException when the rules above are broken
     */
    void register(String table, int version, Schema schema);
}
