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
package io.nearline.common.events;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.schema.DirectorySchemaRegistry;
import io.nearline.common.schema.PayloadUpconverter;
import io.nearline.common.schema.SchemaRegistry;
import io.nearline.common.schema.SchemaRegistryException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Checks a decoded change event before anything is written: key, SCN, partition, schema version,
 * payload presence and size, and, with a schema registry, that the payload is valid Avro under the
 * table's schema of its version. Returns null when the event is fine, else the reason. Thread-safe.
 */
public final class ChangeEventValidator {

    private final int maxPayloadBytes;
    private final SchemaRegistry registry;
    private final PayloadUpconverter payloads;

    /**
     * @param maxPayloadBytes the largest payload accepted
     * @param registry        when not null, the schema version must be registered for the table and the
     *                        payload must decode under it
     */
    public ChangeEventValidator(int maxPayloadBytes, SchemaRegistry registry) {
        this.maxPayloadBytes = maxPayloadBytes;
        this.registry = registry;
        this.payloads = registry == null ? null : new PayloadUpconverter(registry);
    }

    /** A validator with the directory-backed registry at {@code registryDir}, or none when it is empty. */
    public static ChangeEventValidator of(int maxPayloadBytes, String registryDir) {
        return new ChangeEventValidator(
                maxPayloadBytes, registryDir.isBlank() ? null : new DirectorySchemaRegistry(Path.of(registryDir)));
    }

    public Rejection check(ChangeEvent e) {
        if (e.getKey() == null || e.getKey().isEmpty()) {
            return Rejection.of(
                    Rejection.Reason.MISSING_KEY, "change event without a key (table " + e.getTable() + ")");
        }
        int keyBytes = e.getKey().getBytes(StandardCharsets.UTF_8).length;
        if (keyBytes > CacheKey.MAX_UTF8_BYTES) {
            return Rejection.of(
                    Rejection.Reason.KEY_TOO_LONG,
                    "key of " + keyBytes + " bytes, the limit is " + CacheKey.MAX_UTF8_BYTES);
        }
        if (e.getScn() < 0) {
            return Rejection.of(
                    Rejection.Reason.BAD_SCN, "negative SCN " + e.getScn() + " for key '" + e.getKey() + "'");
        }
        if (e.getSeq() < 0) {
            return Rejection.of(
                    Rejection.Reason.BAD_SCN, "negative seq " + e.getSeq() + " for key '" + e.getKey() + "'");
        }
        if (e.getPartition() < 0) {
            return Rejection.of(Rejection.Reason.BAD_PARTITION, "negative partition " + e.getPartition());
        }
        if (e.getSchemaVersion() < 0) {
            return Rejection.of(
                    Rejection.Reason.UNKNOWN_SCHEMA_VERSION, "negative schema version " + e.getSchemaVersion());
        }
        if (registry != null) {
            try {
                registry.schema(e.getTable(), e.getSchemaVersion());
            } catch (RuntimeException unknown) {
                return Rejection.of(Rejection.Reason.UNKNOWN_SCHEMA_VERSION, unknown.getMessage());
            }
        }
        if (e.getOp() == Op.UPSERT) {
            if (e.getPayload() == null) {
                return Rejection.of(
                        Rejection.Reason.MISSING_PAYLOAD, "UPSERT of '" + e.getKey() + "' without a payload");
            }
            if (e.getPayload().remaining() > maxPayloadBytes) {
                return Rejection.of(
                        Rejection.Reason.OVERSIZED_PAYLOAD,
                        "payload of " + e.getPayload().remaining() + " bytes for '" + e.getKey()
                                + "', the limit (cache.max-payload-bytes) is " + maxPayloadBytes);
            }
            if (payloads != null) {
                ByteBuffer b = e.getPayload().duplicate();
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                try {
                    payloads.read(e.getTable(), e.getSchemaVersion(), bytes, e.getSchemaVersion());
                } catch (SchemaRegistryException invalid) {
                    return Rejection.of(Rejection.Reason.INVALID_PAYLOAD, invalid.getMessage());
                }
            }
        }
        return null;
    }
}
