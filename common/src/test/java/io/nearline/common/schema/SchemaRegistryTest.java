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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaRegistryTest {

    static final Schema V1 = SchemaBuilder.record("Profile")
            .namespace("test")
            .fields()
            .requiredString("name")
            .endRecord();
    static final Schema V2 = SchemaBuilder.record("Profile")
            .namespace("test")
            .fields()
            .requiredString("name")
            .name("headline")
            .type()
            .stringType()
            .stringDefault("(none)")
            .endRecord();
    static final Schema V3_BROKEN = SchemaBuilder.record("Profile")
            .namespace("test")
            .fields()
            .requiredString("name")
            .requiredInt("age")
            .endRecord(); // new field without a default

    @Test
    void upConvertsOldPayloadsToTheLatestSchema() {
        SchemaRegistry registry = new InMemorySchemaRegistry();
        registry.register("profile", 1, V1);
        registry.register("profile", 2, V2);
        PayloadUpconverter converter = new PayloadUpconverter(registry);

        GenericRecord old = new GenericData.Record(V1);
        old.put("name", "Ada");
        byte[] written = converter.write("profile", 1, old);

        GenericRecord latest = converter.readLatest("profile", 1, written);
        assertEquals("Ada", latest.get("name").toString());
        assertEquals("(none)", latest.get("headline").toString());
        assertEquals(V2, latest.getSchema());
    }

    @Test
    void incompatibleVersionIsRefusedWithAFix() {
        SchemaRegistry registry = new InMemorySchemaRegistry();
        registry.register("profile", 1, V1);
        SchemaRegistryException e =
                assertThrows(SchemaRegistryException.class, () -> registry.register("profile", 2, V3_BROKEN));
        assertTrue(e.getMessage().contains("cannot read data written with version 1"), e.getMessage());
    }

    @Test
    void versionsAreImmutableAndIncreasing() {
        SchemaRegistry registry = new InMemorySchemaRegistry();
        registry.register("profile", 2, V1);
        registry.register("profile", 2, V1); // identical: no-op
        assertThrows(SchemaRegistryException.class, () -> registry.register("profile", 2, V2));
        assertThrows(SchemaRegistryException.class, () -> registry.register("profile", 1, V1));
        assertThrows(UnknownSchemaException.class, () -> registry.schema("profile", 7));
        assertThrows(UnknownSchemaException.class, () -> registry.schema("nope", 1));
    }

    @Test
    void garbagePayloadIsAClearError() {
        SchemaRegistry registry = new InMemorySchemaRegistry();
        registry.register("profile", 1, V1);
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class, () -> new PayloadUpconverter(registry)
                .read("profile", 1, new byte[] {(byte) 0xff, 1}, 1));
        assertTrue(e.getMessage().contains("not valid Avro"), e.getMessage());
    }

    @Test
    void directoryRegistryPersistsAndSeesVersionsAddedByOthers(@TempDir Path dir) {
        DirectorySchemaRegistry reader = new DirectorySchemaRegistry(dir);
        DirectorySchemaRegistry canary = new DirectorySchemaRegistry(dir);
        canary.register("profile", 1, V1);
        assertEquals(V1, reader.schema("profile", 1));
        canary.register("profile", 2, V2); // deployed after the reader started
        assertEquals(V2, reader.schema("profile", 2));
        assertEquals(
                2, new DirectorySchemaRegistry(dir).latestVersion("profile").getAsInt());
        assertThrows(SchemaRegistryException.class, () -> reader.register("profile", 3, V3_BROKEN));
        assertThrows(SchemaRegistryException.class, () -> reader.register("../evil", 1, V1));
    }
}
