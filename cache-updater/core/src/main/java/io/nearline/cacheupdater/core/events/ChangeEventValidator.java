package io.nearline.cacheupdater.core.events;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.schema.SchemaRegistry;
import java.nio.charset.StandardCharsets;

/**
 * Checks a decoded change event before anything is written: key, SCN, partition, schema version,
 * payload presence and size. Returns null when the event is fine, else the reason.
 *
 * @param maxPayloadBytes   the largest payload accepted
 * @param registry          when not null, the schema version must be registered for the table
 */
public record ChangeEventValidator(int maxPayloadBytes, SchemaRegistry registry) {

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
        if (e.getPartition() < 0) {
            return Rejection.of(Rejection.Reason.BAD_PARTITION, "negative partition " + e.getPartition());
        }
        if (e.getSchemaVersion() < 0) {
            return Rejection.of(
                    Rejection.Reason.UNKNOWN_SCHEMA_VERSION, "negative schema version " + e.getSchemaVersion());
        }
        if (registry != null && registry.latestVersion(e.getTable()).orElse(0) < e.getSchemaVersion()) {
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
        }
        return null;
    }
}
