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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * Reads a payload written under one schema version as another (normally the newest): Avro schema
 * resolution fills defaults for fields added since and drops removed ones. Thread-safe; datum readers
 * are cached per (table, writer version, reader version).
 */
public final class PayloadUpconverter {

    private record Pair(String table, int writer, int reader) {}

    private final SchemaRegistry registry;
    private final Map<Pair, GenericDatumReader<GenericRecord>> readers = new ConcurrentHashMap<>();

    public PayloadUpconverter(SchemaRegistry registry) {
        this.registry = registry;
    }

    /** Decodes {@code payload} (written with {@code writerVersion}) as {@code readerVersion}. */
    public GenericRecord read(String table, int writerVersion, byte[] payload, int readerVersion) {
        GenericDatumReader<GenericRecord> reader = readers.computeIfAbsent(
                new Pair(table, writerVersion, readerVersion),
                p -> new GenericDatumReader<>(
                        registry.schema(table, writerVersion), registry.schema(table, readerVersion)));
        try {
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(payload, null);
            return reader.read(null, decoder);
        } catch (IOException | RuntimeException e) {
            throw new SchemaRegistryException(
                    "payload of table '" + table + "' is not valid Avro for version " + writerVersion + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /** Decodes as the newest registered version of the table. */
    public GenericRecord readLatest(String table, int writerVersion, byte[] payload) {
        int latest = registry.latestVersion(table).orElseThrow(() -> new UnknownSchemaException(table, writerVersion));
        return read(table, writerVersion, payload, Math.max(latest, writerVersion));
    }

    /** Encodes {@code record} as Avro binary under {@code table}'s {@code version} (what a writer to the SOT does). */
    public byte[] write(String table, int version, GenericRecord record) {
        Schema schema = registry.schema(table, version);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        try {
            new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
